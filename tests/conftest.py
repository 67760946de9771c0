"""Every test speaks through the catalogue strictly: a missing message or variable raises."""

from __future__ import annotations

import os

os.environ.setdefault("ZANZIBAR_L10N_STRICT", "1")

from zanzibar.l10n import set_strict

set_strict(os.environ["ZANZIBAR_L10N_STRICT"] not in ("", "0"))
