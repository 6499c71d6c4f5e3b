"""The open API (docs/api.md): personal tokens and OAuth 2, JSON endpoints, NDJSON streams.

A layer above every other app: its operations parse, authenticate, limit and call the
same services the pages and the table socket call; nothing here writes a domain row
itself.
"""
