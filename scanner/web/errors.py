"""Every error the page can meet, answered as one plain sentence: ``{"error": "..."}`` for the
API, a friendly page for a person. Never a stack trace."""

from __future__ import annotations

import html
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

from engine import HandfootError
from scanner.service import ServiceError
from scanner.service.said import Said
from scanner.store import BadValue, Conflict, DamagedRow, NotFound, StorageFault, StoreError
from scanner.web.i18n import page_words

log = logging.getLogger(__name__)

PLAIN_STATUS = {
    404: "There is no such page here.",
    405: "That cannot be done to this address.",
}


def wants_json(request: Request) -> bool:
    path = request.url.path
    return path.startswith("/api") or path == "/healthz" or path.startswith("/scans/")


def answer(request: Request, status: int, message: str, said: Said | None = None) -> Response:
    """``{"error": English sentence}``; where the sentence can be said in the page's language,
    also ``said`` (its key and values) and ``shown`` (it said in the page's language)."""
    if said is not None:
        try:
            shown = page_words(request)["tell"](said.to_json())
        except Exception:  # a catalogue that cannot say it: the English sentence still helps
            log.exception("the sentence %r could not be said", said.key)
            said = None
    if wants_json(request):
        body = {"error": message}
        if said is not None:
            body |= {"said": said.to_json(), "shown": shown}
        return JSONResponse(body, status_code=status)
    if said is not None:
        message = shown
    try:
        state = request.app.state.service.state_json()
        settings = request.app.state.settings
        return request.app.state.templates.TemplateResponse(
            request,
            "error.html",
            {
                **page_words(request),
                "message": message,
                "status": status,
                "page": "error",
                "state": state,
                "codes": state["rules"]["codes"],
                "pin_required": settings.pin is not None,
            },
            status_code=status,
        )
    except Exception:  # the friendly page itself failed: a bare sentence still helps
        log.exception("the error page could not be drawn")
        text = html.escape(message)
        return HTMLResponse(f"<!doctype html><meta charset=utf-8><p>{text}</p>", status)


def field_name(location: Any) -> str:
    parts = [str(part) for part in location if part not in ("body", "query", "path", "header")]
    return ".".join(parts)


def validation_sentence(errors: list[dict]) -> str:
    """Pydantic's first complaint as a sentence that names the field.

    >>> validation_sentence([{"type": "int_parsing", "loc": ("body", "card"), "input": "x",
    ...                       "msg": "Input should be a valid integer"}])
    "The field 'card' must be a whole number (it was 'x')."
    >>> validation_sentence([{"type": "missing", "loc": ("body", "action"), "msg": "Required"}])
    "The field 'action' is missing."
    """
    if not errors:
        return "The request could not be read."
    first = errors[0]
    kind = first.get("type", "")
    field = field_name(first.get("loc", ()))
    if kind == "json_invalid":
        return "The request is not valid JSON."
    if not field:
        return "The request body must be a JSON object with the fields this action takes."
    if kind == "missing":
        return f"The field '{field}' is missing."
    if kind == "extra_forbidden":
        return f"The field '{field}' is not one this action takes."
    reasons = {
        "int_parsing": "must be a whole number",
        "int_type": "must be a whole number",
        "int_from_float": "must be a whole number",
        "bool_parsing": "must be true or false",
        "bool_type": "must be true or false",
        "string_type": "must be text",
        "list_type": "must be a list",
        "dict_type": "must be an object",
        "model_type": "must be an object",
        "string_too_long": "is too long",
        "greater_than_equal": "is too small",
        "less_than_equal": "is too large",
    }
    reason = reasons.get(kind)
    if reason is None:
        message = str(first.get("msg", "is not valid"))
        reason = message.replace("Input should be", "must be").replace("Value error, ", "")
        reason = reason[0].lower() + reason[1:] if reason else "is not valid"
    shown = first.get("input")
    if isinstance(shown, str | int | float | bool) and not isinstance(shown, dict):
        text = repr(shown)
        text = text if len(text) <= 40 else text[:37] + "..."
        return f"The field '{field}' {reason} (it was {text})."
    return f"The field '{field}' {reason}."


def install(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> Response:
        return answer(request, error.status, str(error), error.said)

    @app.exception_handler(HandfootError)
    async def engine_error(request: Request, error: HandfootError) -> Response:
        return answer(request, 400, _sentence(str(error)))

    @app.exception_handler(StoreError)
    async def store_error(request: Request, error: StoreError) -> Response:
        if isinstance(error, NotFound):
            return answer(request, 404, str(error))
        if isinstance(error, Conflict):
            return answer(request, 409, str(error))
        if isinstance(error, BadValue):
            return answer(request, 400, str(error))
        log.error("game record: %s", error)
        if isinstance(error, StorageFault | DamagedRow):  # the sentence says it all
            return answer(request, 503, str(error))
        return answer(request, 503, f"The game record cannot be used right now: {error}")

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> Response:
        return answer(request, 422, validation_sentence(list(error.errors())))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        detail = error.detail if isinstance(error.detail, str) else None
        message = PLAIN_STATUS.get(error.status_code) or detail or "That request cannot be used."
        if error.status_code == 400 and detail == "There was an error parsing the body":
            message = "The request body could not be read."
        return answer(request, error.status_code, message)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return answer(
            request,
            500,
            "Something went wrong inside handfoot: try again. The log has the details.",
        )


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."
