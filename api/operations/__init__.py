"""The API's operations, one router per area; each operation names its ``operation_id``."""
