"""Snapshots compressed with LZ4 on PostgreSQL (14 and later, when built with it; else left as they were).

A snapshot of a long match was large (the state kept every deal's seeds until the match's end: about 270 KB of
JSON at version 6,000 of a heads-up Palace Poker match; since f0f0b4e only games begun without a master seed do)
and PostgreSQL compresses it on the write that makes it due, inside an action's request. LZ4 stores it as small
as the default pglz and takes half the time: an insert of that snapshot, committed, 7.9 ms with pglz against
3.5 ms (benchmarks/README.md, the section of 2026-11-29). Only values written afterwards change; both methods are
read back alike.
"""

from django.db import migrations

SET_COMPRESSION = "ALTER TABLE games_snapshot ALTER COLUMN state SET COMPRESSION"


def _compression(method: str):
    def set_compression(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        # A server built without LZ4 refuses the method (feature_not_supported), one before 14 the clause
        # (syntax_error, hence EXECUTE: parsed when run): its snapshots stay as they are.
        schema_editor.execute(
            f"DO $$ BEGIN EXECUTE '{SET_COMPRESSION} {method}'; "
            "EXCEPTION WHEN feature_not_supported OR syntax_error THEN NULL; END $$"
        )

    return set_compression


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_game_seed_master"),
    ]

    operations = [migrations.RunPython(_compression("lz4"), _compression("default"))]
