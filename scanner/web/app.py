"""The app factory: the FastAPI app for one table, given its service and settings. Nothing
global: everything a route needs comes from here."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from scanner.service import TableService
from scanner.web import errors
from scanner.web.api import api_router
from scanner.web.pages import page_router
from scanner.web.security import (
    BodyLimit,
    ChangeGuard,
    HostAllowList,
    HostGuard,
    SecurityHeaders,
)
from scanner.web.streams import CloseAfterStream

HERE = Path(__file__).resolve().parent
MB = 2**20
UPLOAD_PATH = "/api/scans/upload"
EVENTS_PATH = "/api/events"


@dataclass(frozen=True)
class WebSettings:
    """``pin``: the table PIN or passphrase every change, and reading photos and exports,
    needs (None: no PIN). ``max_upload_bytes``: the
    largest photo accepted; other requests get ``max_body_bytes``. ``allowed_hosts``: names
    accepted in the Host header besides this machine's own names and any IP address."""

    pin: str | None = None
    max_upload_bytes: int = 15 * MB
    max_body_bytes: int = 1 * MB
    allowed_hosts: tuple[str, ...] = ()
    manage_service: bool = True  # start and stop the service with the app


def create_app(
    service: TableService, settings: WebSettings | None = None, panel: Any = None
) -> FastAPI:
    """``panel``: the LED/button panel (``hardware.simulated.SimulatedPanel`` or
    ``hardware.panel.Panel``) the page's drawn panel presses and shows; without one the drawn
    buttons call the service directly and the face is drawn from the service's state."""
    settings = settings or WebSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.manage_service:
            service.start()
        if panel is not None:
            panel.start()
        try:
            yield
        finally:
            if panel is not None:
                panel.close()
            if settings.manage_service:
                service.stop()

    app = FastAPI(
        title="handfoot",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    templates = Jinja2Templates(directory=HERE / "templates")
    app.state.templates = templates
    app.state.settings = settings
    app.state.service = service
    app.state.panel = panel
    errors.install(app)
    app.include_router(api_router(service, panel))
    app.include_router(page_router(service, templates, settings, panel))
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def limit_for(path: str) -> int:
        return settings.max_upload_bytes if path == UPLOAD_PATH else settings.max_body_bytes

    # Added innermost first: the Host check runs before anything else, and every answer, a
    # refusal too, carries the security headers.
    app.add_middleware(CloseAfterStream, path=EVENTS_PATH)
    app.add_middleware(BodyLimit, limit_for=limit_for)
    app.add_middleware(ChangeGuard, pin=settings.pin)
    app.add_middleware(HostGuard, allow=HostAllowList(settings.allowed_hosts))
    app.add_middleware(SecurityHeaders)
    return app
