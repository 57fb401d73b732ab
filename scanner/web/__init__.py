"""The page every phone at the table opens: ``create_app(service, settings)`` builds the FastAPI
app (JSON API under ``/api``, server-rendered pages, live updates, ``/healthz``)."""

from scanner.web.app import WebSettings, create_app

__all__ = ["WebSettings", "create_app"]
