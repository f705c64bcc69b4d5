"""The shape of a toy move, as JSON Schema: ``{"type": "add", "n": 1..3}``."""

MOVE_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Toy race move",
    "type": "object",
    "properties": {"type": {"const": "add"}, "n": {"type": "integer", "minimum": 1, "maximum": 3,
                                                          "description": "1, 2 or 3"}},
    "required": ["type", "n"],
    "additionalProperties": False,
}
