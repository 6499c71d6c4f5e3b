"""The shapes the API answers with (pydantic, through django-ninja): the OpenAPI schema."""

from __future__ import annotations

from ninja import Schema


class ErrorBody(Schema):
    code: str
    message: str


class Error(Schema):
    error: ErrorBody


class Account(Schema):
    id: int
    username: str
    name: str
    language: str
    is_bot: bool
    balance: int
    scopes: list[str]
