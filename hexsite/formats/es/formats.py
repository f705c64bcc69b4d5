DATETIME_FORMAT = r"j \d\e F \d\e Y, H:i T"
SHORT_DATETIME_FORMAT = "d/m/Y H:i T"
