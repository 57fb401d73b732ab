"""The pages a person opens: server-rendered HTML that works on an old phone without a
framework. Every page is built from the service's views; the small script in ``static`` only
sends actions to the API and reloads the page's live part when the table changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates

from engine import PRESETS, get_preset
from engine.scoring import LINE_TITLES
from scanner.decks.layouts import LAYOUTS, layout_rows
from scanner.service import ERRORS, NotNow, TableService
from scanner.web import i18n, rules_form
from scanner.web.api import panel_face
from scanner.web.chart import totals_chart
from scanner.web.join import join_links

HERE = Path(__file__).resolve().parent
MODE_TITLES = {"table": "Table", "leftovers": "Leftovers", "meld": "Meld check"}
IMAGE_CACHE = "private, max-age=86400"
STARTER_RULES = """base = "pagat"
name = "Our house rules"
# Change any parameter of the base preset below this line, for example:
# clean_bonus = 500
# initial_minimums = [50, 90, 120, 150]
"""


MANIFEST = {
    "name": "handfoot: Hand and Foot at the table",
    "short_name": "handfoot",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "background_color": "#ffffff",
    "theme_color": "#112233",
    "icons": [
        {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
    ],
}


def page_router(
    service: TableService, templates: Jinja2Templates, settings, panel: Any = None
) -> APIRouter:
    router = APIRouter()

    def render(request: Request, name: str, page: str, **context) -> HTMLResponse:
        state = service.state_json()
        return templates.TemplateResponse(
            request,
            name,
            {
                **i18n.page_words(request),
                "page": page,
                "state": state,
                "codes": state["rules"]["codes"],
                "pin_required": settings.pin is not None,
                # A phone shows its number pad for a PIN of digits, its keyboard otherwise.
                "pin_digits": settings.pin is not None and settings.pin.isdigit(),
                "modes": MODE_TITLES,
                "lines": LINE_TITLES,
                "errors": ERRORS,
                "face": panel_face(service, panel),
                "panel_simulated": service.panel_kind == "simulated",
                **context,
            },
            headers={"Cache-Control": "no-store"},
        )

    @router.get("/", response_class=HTMLResponse)
    def home(request: Request) -> HTMLResponse:
        state = service.state_json()
        chart = None
        if state["game"]:
            sides = [(side["name"], side["running"]) for side in state["sides"]]
            chart = totals_chart(sides, state["rules"]["deals"])
        return render(request, "index.html", "home", chart=chart, join=join_links(request))

    @router.get("/scan/{scan_id}", response_class=HTMLResponse)
    def review(request: Request, scan_id: int) -> HTMLResponse:
        view = service.scan_view(scan_id)
        return render(request, "review.html", "review", scan=view)

    @router.get("/deal", response_class=HTMLResponse)
    def deal(request: Request) -> HTMLResponse:
        try:
            preview = service.preview()
        except NotNow as error:
            preview, reason = None, error.said or str(error)
        else:
            reason = None
        return render(request, "deal.html", "deal", preview=preview, reason=reason)

    @router.get("/new", response_class=HTMLResponse)
    def new_game(request: Request) -> HTMLResponse:
        presets = [{"spec": spec, "description": get_preset(spec).description} for spec in PRESETS]
        words = i18n.page_words(request)["t"]
        form = rules_form.form_json(next(iter(PRESETS)), words)  # the preset checked first
        return render(
            request,
            "new.html",
            "new",
            presets=presets,
            starter=STARTER_RULES,
            form=form,
            decks=service.decks(),
        )

    @router.get("/history", response_class=HTMLResponse)
    def history(request: Request) -> HTMLResponse:
        return render(request, "history.html", "history", games=service.games())

    @router.get("/history/{game_id}", response_class=HTMLResponse)
    def game(request: Request, game_id: int) -> HTMLResponse:
        record = service.game(game_id)
        sides = [(side["name"], side["running"]) for side in record["sides"]]
        chart = totals_chart(sides, record["deals_in_game"])
        return render(request, "game.html", "history", game=record, chart=chart)

    @router.get("/decks", response_class=HTMLResponse)
    def decks(request: Request) -> HTMLResponse:
        layouts = {kind: layout_rows(kind) for kind in LAYOUTS}
        return render(request, "decks.html", "decks", decks=service.decks(), layouts=layouts)

    @router.get("/teach/{lesson_id}", response_class=HTMLResponse)
    def lesson(request: Request, lesson_id: int) -> HTMLResponse:
        """A deck's photo as it was read, for the players to keep or take again."""
        waiting = service.lesson(lesson_id)
        rows = layout_rows(waiting["layout"])
        return render(request, "lesson.html", "decks", lesson=waiting, rows=rows)

    @router.get("/teach/{lesson_id}/crops/{number}.png")
    def lesson_crop(lesson_id: int, number: int) -> Response:
        return Response(service.lesson_crop(lesson_id, number), media_type="image/png")

    # before the deck's page: a deck's name may hold a slash
    @router.get("/decks/{name:path}/examples/{example_id}.png")
    def deck_crop(name: str, example_id: int) -> Response:
        return Response(
            service.deck_crop(name, example_id),
            media_type="image/png",
            headers={"Cache-Control": IMAGE_CACHE},
        )

    @router.get("/decks/{name:path}/deck-file")
    def deck_file(name: str) -> Response:
        """The deck as one file, to keep or to take to another table."""
        kept, data = service.deck_file(name)
        shown = quote(f"{kept}.handfoot-deck.zip", safe="")
        return Response(
            data,
            media_type="application/zip",
            headers={"Content-Disposition": f"attachment; filename*=UTF-8''{shown}"},
        )

    @router.get("/decks/{name:path}", response_class=HTMLResponse)
    def deck(request: Request, name: str) -> HTMLResponse:
        return render(request, "deck.html", "decks", deck=service.deck(name))

    @router.get("/scans/{scan_id}/image")
    def image(scan_id: int) -> Response:
        return FileResponse(service.scan_file(scan_id), headers={"Cache-Control": IMAGE_CACHE})

    @router.get("/scans/{scan_id}/annotated")
    def annotated(scan_id: int) -> Response:
        return FileResponse(
            service.scan_file(scan_id, annotated=True), headers={"Cache-Control": IMAGE_CACHE}
        )

    @router.get("/manifest.webmanifest")
    def manifest() -> Response:
        return JSONResponse(MANIFEST, media_type="application/manifest+json")

    @router.get("/sw.js")
    def service_worker() -> Response:
        """The offline shell: served from the top so that it may keep the page's own files
        (its scope is the whole page)."""
        return FileResponse(
            HERE / "static" / "sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @router.get("/healthz")
    def health() -> Response:
        report = service.health()
        return JSONResponse(report, status_code=200 if report["ok"] else 503)

    return router
