"""Where a table's aid policy is kept and what a table without one gets
(app/services/clock/table_options.py): off when rated (and for every match from before
policies), legal placements highlighted otherwise; tournament tables keep ``off``.
"""

from __future__ import annotations

import pytest

from app.engine.aids import AidPolicy
from app.services.clock import table_options
from app.services.errors import ValidationFailed


def test_a_table_without_a_policy_gets_the_default_of_its_kind() -> None:
    assert table_options.aids_of(None, True) == AidPolicy.off()
    assert table_options.aids_of({"kind": "untimed"}, False) == AidPolicy.casual()
    assert AidPolicy.casual().for_viewer(False) == frozenset({"legal_placements"})


def test_the_policy_rides_in_the_time_control_column_without_disturbing_it() -> None:
    control = table_options.stored({"kind": "per_turn", "seconds": 60}, {"kind": "skip"})
    kept = table_options.with_aids(control, AidPolicy.off().to_json())
    assert table_options.aids_of(kept, False) == AidPolicy.off()
    assert table_options.split_stored(kept) == (
        {"kind": "per_turn", "seconds": 60},
        {"kind": "skip"},
    )
    assert table_options.lobby_fields(kept)["time_control"] == {"kind": "per_turn", "seconds": 60}


def test_a_bad_policy_is_refused_naming_its_field() -> None:
    with pytest.raises(ValidationFailed, match=r"^aids\.mode"):
        table_options.parse_aids({"mode": "everything"})
    assert table_options.parse_aids("learning")["mode"] == "learning"
