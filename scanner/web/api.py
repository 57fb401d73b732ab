"""The JSON API the page uses (and tests drive): every route checks its input and calls the
service; none touches the store or the engine's state itself."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent
from pydantic import BaseModel, ConfigDict, Field

from engine import PRESETS, HandfootError, get_preset, rules_to_toml
from scanner.service import Button, NoSuchThing, TableService
from scanner.service.checks import parse_rules
from scanner.service.display import state_face
from scanner.service.views import public_view, rules_json
from scanner.web import i18n, rules_form
from scanner.web.streams import COME_BACK_MS, StreamLimit

log = logging.getLogger(__name__)

Mode = Literal["meld", "table", "leftovers"]
PRESET_OPTIONS = ("brouillette:low", "brouillette-partners:low")
SCAN_WAIT_S = 120.0
HOLD_WAIT_S = 30.0
EVENT_QUEUE = 64
# Ids and numbers in a URL: SQLite's integers end at 2**63 - 1; past that is no row, not a 500.
RowId = Annotated[int, Path(ge=1, le=2**63 - 1)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SideIn(Body):
    name: str = Field(max_length=200)
    players: list[str] | str = []
    # where each player sits, in the players' order: seat 1 deals first, the deal passes left
    seats: list[int | None] | None = Field(None, max_length=100)


class NewGameIn(Body):
    name: str = Field("", max_length=200)
    sides: list[SideIn]
    rules: str | None = Field(None, max_length=100)
    rules_toml: str | None = Field(None, max_length=20_000)
    deck: str | None = Field(None, max_length=200)  # a taught deck's name: scans read with it


class RulesCheckIn(Body):
    rules_toml: str = Field(max_length=20_000)


class RulesFormIn(Body):
    """The house-rules form: the base preset and the fields changed from it (as typed)."""

    base: str = Field(max_length=100)
    # a list: books to go out, one row per deal (at most a game's 100 deals)
    changed: dict[
        str, str | bool | dict[str, str] | Annotated[list[dict[str, str]], Field(max_length=100)]
    ] = Field(default_factory=dict, max_length=40)


class SelectIn(Body):
    mode: Mode | None = None
    side: str | None = None


class ScanIn(Body):
    mode: Mode | None = None
    side: str | None = None


class CorrectionIn(Body):
    action: Literal["change", "move", "add", "delete", "accept", "remove_meld"]
    card: int | None = Field(None, ge=0, le=2**31)
    code: str | None = Field(None, max_length=20)
    to: str | None = Field(None, max_length=20)
    meld: int | None = Field(None, ge=0, le=2**31)


class DealSideIn(Body):
    went_out: bool | None = None
    picked_22: bool | None = None
    hand: str | None = Field(None, max_length=2000)
    foot: str | None = Field(None, max_length=2000)


class SideOfDealIn(DealSideIn):
    side: str = Field(max_length=200)


class ConfirmIn(Body):
    accept_checks: bool = False
    # the deal the page showed: a confirm that comes after the table moved on is refused (409)
    deal: int | None = Field(None, ge=1, le=1000)


class TeachIn(Body):
    name: str = Field(max_length=200)
    layout: Literal["standard", "special"] = "standard"
    again: bool = False  # teach a kept deck again


class DeckIn(Body):
    deck: str = Field(max_length=200)


class ExampleIn(DeckIn):
    example: int = Field(ge=1, le=2**63 - 1)


def page_language(request: Request):
    """The translator for the language the page that asks is shown in."""
    return i18n.translator(
        i18n.best_language(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))
    )


def panel_face(service: TableService, panel: Any) -> dict:
    """What the panel shows: read back from its gpiozero devices when there is one, else drawn
    from the service's state the same way."""
    if panel is not None:
        return panel.snapshot()
    return state_face(service.state).to_json()


def api_router(service: TableService, panel: Any = None) -> APIRouter:
    """``panel``: the simulated or GPIO panel; the drawn buttons press it (on the simulated
    one, a press drives gpiozero's mock pin, so it is a real gpiozero button event)."""
    router = APIRouter(prefix="/api")

    @router.post("/session")
    def session() -> dict:
        """A phone gives the table PIN once: the guard checks it and hands the phone its
        session cookie (with no PIN set, there is nothing to check)."""
        return {"ok": True}

    @router.get("/state")
    def state() -> dict:
        return service.state_json()

    @router.get("/rules")
    def presets() -> list[dict]:
        return [{"spec": spec} | rules_json(get_preset(spec)) for spec in preset_specs()]

    @router.get("/rules/{spec}/toml", response_class=PlainTextResponse)
    def preset_toml(spec: str) -> str:
        try:
            return rules_to_toml(get_preset(spec))
        except HandfootError:
            raise NoSuchThing("preset", repr(spec)) from None

    @router.post("/rules/check")
    def check_rules(body: RulesCheckIn, request: Request) -> dict:
        rules, name, _ = parse_rules(None, body.rules_toml)
        base = rules_form.base_of(body.rules_toml)
        return {
            "ok": True,
            "name": name,
            "rules": rules_json(rules),
            # to fill the form from the text: its base preset and every value
            "base": base,
            "form": rules_form.form_values(rules),
            "summary": rules_form.summary(rules, page_language(request)),
        }

    @router.get("/rules/{spec}/form")
    def preset_form(spec: str, request: Request) -> dict:
        """The house-rules form for a preset: its fields, allowed values and values, in the
        page's language."""
        try:
            return rules_form.form_json(spec, page_language(request))
        except HandfootError:
            raise NoSuchThing("preset", repr(spec)) from None

    @router.post("/rules/form")
    def check_form(body: RulesFormIn, request: Request) -> dict:
        """The form's rules checked as they are typed: each problem by field, in players'
        words; for rules that can be played, their summary and their TOML text."""
        return rules_form.check(body.base, body.changed, page_language(request))

    @router.post("/games", status_code=201)
    def new_game(body: NewGameIn) -> dict:
        game = service.new_game(
            name=body.name,
            sides=[side.model_dump(exclude_none=True) for side in body.sides],
            rules=body.rules,
            rules_toml=body.rules_toml,
            deck=body.deck or None,
        )
        return {"game": game, "state": service.state_json()}

    @router.get("/games")
    def games() -> list[dict]:
        return service.games()

    @router.get("/games/{game_id}")
    def game(game_id: RowId) -> dict:
        return service.game(game_id)

    @router.post("/games/{game_id}/resume")
    def resume(game_id: RowId) -> dict:
        return {"game": service.resume_game(game_id), "state": service.state_json()}

    @router.get("/games/{game_id}/export.json")
    def export_json(game_id: RowId) -> Response:
        return JSONResponse(
            service.export(game_id, "json"),
            headers={"Content-Disposition": f'attachment; filename="handfoot-game-{game_id}.json"'},
        )

    @router.get("/games/{game_id}/export.csv")
    def export_csv(game_id: RowId) -> Response:
        return Response(
            str(service.export(game_id, "csv")),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="handfoot-game-{game_id}.csv"'},
        )

    @router.post("/select")
    def select(body: SelectIn) -> dict:
        return service.select(mode=body.mode, side=body.side)

    @router.post("/scan")
    def scan(body: ScanIn) -> dict:
        return public_view(service.scan(body.mode, body.side)) or {}

    @router.post("/scans/upload")
    async def upload(
        request: Request,
        mode: Annotated[Mode | None, Query()] = None,
        side: Annotated[str | None, Query(max_length=200)] = None,
    ) -> dict:
        chunks = [chunk async for chunk in request.stream()]
        view = await run_in_threadpool(service.upload, b"".join(chunks), mode, side)
        return public_view(view) or {}

    @router.get("/scans/{scan_id}")
    def scan_detail(scan_id: RowId) -> dict:
        return public_view(service.scan_view(scan_id)) or {}

    @router.post("/scans/{scan_id}/corrections")
    def correct(scan_id: RowId, body: CorrectionIn) -> dict:
        detail = body.model_dump(exclude_none=True, exclude={"action"})
        return public_view(service.correct(scan_id, body.action, detail)) or {}

    @router.post("/camera/new-table")
    def new_table() -> dict:
        return service.lay_new_table()

    @router.get("/decks")
    def decks() -> list[dict]:
        return service.decks()

    @router.post("/decks/lessons")
    def teach(body: TeachIn) -> dict:
        """Photograph a deck laid out and read it; the lesson waits for the players' word
        (its page: ``page``)."""
        return service.teach(body.name, body.layout, body.again)

    @router.post("/decks/lessons/upload")
    async def teach_from_photo(
        request: Request,
        name: Annotated[str, Query(max_length=200)],
        layout: Annotated[str, Query(max_length=20)] = "standard",
        again: bool = False,
    ) -> dict:
        """A phone's photo of a deck laid out, read as a lesson (as ``/decks/lessons``)."""
        chunks = [chunk async for chunk in request.stream()]
        return await run_in_threadpool(service.teach, name, layout, again, b"".join(chunks))

    @router.post("/decks/import")
    async def import_deck(request: Request) -> dict:
        """Keep a deck from a file saved at this table or another (its page: ``page``)."""
        chunks = [chunk async for chunk in request.stream()]
        return await run_in_threadpool(service.import_deck, b"".join(chunks))

    @router.post("/decks/lessons/{lesson_id}/more")
    def another_photo(lesson_id: RowId) -> dict:
        """One more photo from the camera, read with the lesson's photos before."""
        return service.another_photo(lesson_id)

    @router.post("/decks/lessons/{lesson_id}/more/upload")
    async def another_phone_photo(lesson_id: RowId, request: Request) -> dict:
        """One more photo, from a phone, read with the lesson's photos before."""
        chunks = [chunk async for chunk in request.stream()]
        return await run_in_threadpool(service.another_photo, lesson_id, b"".join(chunks))

    @router.get("/decks/lessons/{lesson_id}")
    def lesson(lesson_id: RowId) -> dict:
        return service.lesson(lesson_id)

    @router.post("/decks/lessons/{lesson_id}/again")
    def retake(lesson_id: RowId) -> dict:
        return service.retake(lesson_id)

    @router.post("/decks/lessons/{lesson_id}/keep")
    def keep(lesson_id: RowId) -> dict:
        return service.keep_lesson(lesson_id)

    @router.post("/decks/examples/remove")
    def remove_example(body: ExampleIn) -> dict:
        """Take one example out of a deck; the deck is named in the body (any characters)."""
        return service.remove_deck_example(body.deck, body.example)

    @router.post("/decks/delete")
    def delete_deck(body: DeckIn) -> dict:
        return service.delete_deck(body.deck)

    @router.post("/deal/side")
    def side_of_deal(body: SideOfDealIn) -> dict:
        """What the camera cannot see about one side; the side is named in the body, since a
        team's name may hold any character, a slash or ``..`` too."""
        return service.set_side(body.side, **body.model_dump(exclude_none=True, exclude={"side"}))

    @router.post("/deal/sides/{name:path}")
    def deal_side(name: str, body: DealSideIn) -> dict:
        return service.set_side(name, **body.model_dump(exclude_none=True))

    @router.get("/deal/preview")
    def preview() -> dict:
        return service.preview()

    @router.post("/deal/confirm")
    def confirm(body: ConfirmIn) -> dict:
        return {"deal": service.confirm(accept_checks=body.accept_checks, deal=body.deal)}

    @router.post("/deal/undo")
    def undo() -> dict:
        return {"deal": service.undo()}

    @router.get("/panel")
    def panel_state() -> dict:
        return service.state.panel.to_json() | {"face": panel_face(service, panel)}

    @router.post("/panel/{button}")
    def press(button: Literal["scan", "mode", "next"]) -> dict:
        which = Button(button)
        future = panel.press(which) if panel is not None else service.press(which)
        outcome = future.result(timeout=SCAN_WAIT_S)
        return {
            "panel": service.state.panel.to_json(),
            "face": panel_face(service, panel),
            "scan": public_view(outcome) if which is Button.SCAN else None,
        }

    @router.post("/panel/{button}/hold")
    def hold(button: Literal["scan", "next"]) -> dict:
        """Hold SCAN (cancel) or NEXT (undo the last deal) for the panel's hold time."""
        which = Button(button)
        future = panel.hold(which) if panel is not None else service.hold(which)
        future.result(timeout=HOLD_WAIT_S)
        return {"panel": service.state.panel.to_json(), "face": panel_face(service, panel)}

    streams = StreamLimit()

    @router.get("/events", response_class=EventSourceResponse)
    async def events(request: Request) -> AsyncIterator[ServerSentEvent]:
        """Every change to the table as it happens (event ``state``); the page reloads the
        part it shows. The first event tells the version the page should have. Past the cap
        on open streams the oldest is closed, told to come back in half a minute."""
        loop = asyncio.get_running_loop()
        waiting: asyncio.Queue[dict] = asyncio.Queue(maxsize=EVENT_QUEUE)

        def hand_on(event: dict) -> None:
            loop.call_soon_threadsafe(_put_latest, waiting, event)

        client = request.client.host if request.client else "unknown"
        stream = streams.open(client, lambda: _put_latest(waiting, {"kind": "too-many"}))
        unsubscribe = service.events.subscribe(hand_on)
        try:
            first = {"kind": "hello", "version": service.state.version}
            yield ServerSentEvent(data=first, event="state", retry=2000)
            while True:
                event = await waiting.get()
                if event.get("kind") == "too-many":
                    yield ServerSentEvent(comment="too many open pages", retry=COME_BACK_MS)
                    return
                if event.get("kind") == "closed":
                    return
                yield ServerSentEvent(data=event, event="state", id=str(event["version"]))
        finally:
            unsubscribe()
            streams.done(stream)

    return router


def _put_latest(waiting: asyncio.Queue, event: dict) -> None:
    """A page that reads slowly gets the newest events; the oldest are dropped (each event
    only says "the table changed", so nothing is lost by skipping one)."""
    while True:
        try:
            waiting.put_nowait(event)
            return
        except asyncio.QueueFull:
            with contextlib.suppress(asyncio.QueueEmpty):
                waiting.get_nowait()


def preset_specs() -> list[str]:
    return [*PRESETS, *PRESET_OPTIONS]
