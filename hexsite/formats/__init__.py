"""Our date formats (settings.FORMAT_MODULE_PATH), over Django's for each language: a moment is
shown with a 24-hour time and its time zone ("3 May 2026, 07:28 UTC"), in the viewer's zone
(accounts.middleware). Django's English "7:28 a.m." gave a sentence ending in a time two full
stops, and said nothing of the zone."""
