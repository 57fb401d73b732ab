"""The table's state machine: what a panel button or a page action does.

``TableService(store, recogniser, camera)`` is built by the composition root
(``handfoot serve``), started, and called by the web routes and the panel; it calls the engine
and the store. ``PanelState`` is what the panel shows; listeners subscribe to
``service.events`` for every change.
"""

from scanner.service.camera import TableCamera
from scanner.service.errors import (
    BadInput,
    BadUpload,
    Busy,
    CannotScan,
    NoSuchThing,
    NotNow,
    ServiceError,
    Unreadable,
)
from scanner.service.panel import (
    ERRORS,
    Button,
    PanelState,
    PanelUnavailable,
    check_panel_kind,
)
from scanner.service.service import TableService
from scanner.service.state import SideWork, TableState

__all__ = [
    "ERRORS",
    "BadInput",
    "BadUpload",
    "Busy",
    "Button",
    "CannotScan",
    "NoSuchThing",
    "NotNow",
    "PanelState",
    "PanelUnavailable",
    "ServiceError",
    "SideWork",
    "TableCamera",
    "TableService",
    "TableState",
    "Unreadable",
    "check_panel_kind",
]
