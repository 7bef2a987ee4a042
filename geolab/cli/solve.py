"""`geolab solve RECORD`: the value of every decision of a game record by the oracle its game
offers (``solve``: a perfect-information solver that sees every hand; its report says so).
"""

from __future__ import annotations

from geolab import records, registry
from geolab.cli.output import print_json
from geolab.errors import RecordError
from geolab.game import check_format


def register(commands) -> None:
    games = ", ".join(registry.title(n) for n in registry.offering("solve"))
    p = commands["top"].add_parser(
        "solve",
        help=f"value every decision of a game record with its oracle (sees every hand; games: {games})",
        description=__doc__,
    )
    p.add_argument("file", help="a geolab-record/1 JSON file, or a match saved by geolab play")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_solve)


def solved(record: dict) -> tuple[dict, list[str]]:
    """The report of the solver the record's game offers (``"solve"`` in its definition), and its lines."""
    check_format(record)
    entry = registry.by_record(record["game"])
    solve = entry.offer("solve")
    if solve is None:
        offering = ", ".join(registry.get(n).game.record_game for n in registry.offering("solve"))
        raise RecordError(f"game: no solver for {entry.game.record_game!r} records (solvers: {offering})")
    return solve(record)


def run_solve(args) -> None:
    found = records.game_records(records.load(args.file))  # a record, or a session's finished games
    if not found:
        raise RecordError(f"{args.file}: no finished game to solve yet (geolab play --resume {args.file})")
    reports = [solved(record) for record in found]
    if args.json:
        print_json(reports[0][0] if len(reports) == 1 else {"solver": reports[0][0]["solver"],
                                                              "games": [report for report, _ in reports]})
        return
    for k, (_, lines) in enumerate(reports, start=1):
        if len(reports) > 1:
            print(f"\n== game {k} of {len(reports)}")
        for line in lines:
            print(line)
