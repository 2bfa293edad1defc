"""The ``zamek`` command line."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import click

from zamek.castle import fast
from zamek.castle import record as records
from zamek.castle.arena import (
    ArenaReport,
    GameResult,
    ladder,
    ladder_pairs,
    ladder_table,
    progress_line,
    results_from_json,
    run_arena,
)
from zamek.castle.bots.levels import DEEP_WIDTH, LEVELS, OFFERED_LEVELS, STRONGER_CAPS, STRONGER_LEVELS, make_bot
from zamek.castle.data.loader import load_tileset
from zamek.castle.render import render_castle, render_tile
from zamek.castle.report import breakdown, describe_move, item_line, player_name
from zamek.castle.rules.actions import Action, Draw, parse_action
from zamek.castle.rules.editions import EDITIONS, edition_of
from zamek.castle.rules.errors import DataError, RecordError
from zamek.castle.rules.setup import Setup
from zamek.castle.rules.state import GameState
from zamek.castle.runner import play_game
from zamek.castle.stats import format_table, random_play_table, structure_table, unplaceable_in_empty_castle
from zamek.castle.terms import LANGUAGES, term
from zamek.cli.knights import knights
from zamek.kit.arena import schedule

LANG = click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True, help="Language.")


def rule_options(func: Any) -> Any:
    """Add --edition, --sokol and --gate-guard to a command."""
    func = click.option("--gate-guard", is_flag=True, help="Sokół variant: gates stop score markers (F8).")(func)
    func = click.option("--sokol", is_flag=True, help="Play with the Sokół (Falcon) expansion.")(func)
    return click.option(
        "--edition", type=click.Choice(EDITIONS), default="zamek", show_default=True,
        help="zamek (2020) or castle2003 (The Castle, 2003).",
    )(func)


def make_setup(edition: str, sokol: bool, gate_guard: bool) -> Setup:
    try:
        return Setup(edition=edition_of(edition), sokol=sokol, gate_guard=gate_guard)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


@click.group()
def main() -> None:
    """Zamek: Carcassonne: The Castle, its rules engine and tools."""


@main.command()
@click.option("--seed", type=int, default=None, help="Seed of the game (random if omitted).")
@rule_options
@LANG
def watch(seed: int | None, edition: str, sokol: bool, gate_guard: bool, lang: str) -> None:
    """Watch two computer players play a game: the moves, the final castle and the score breakdown."""
    if seed is None:
        seed = int.from_bytes(__import__("os").urandom(4), "little")
    click.echo(f"Seed {seed}")

    def on_action(state: GameState, action: Action) -> None:
        text = describe_move(state, action, lang)
        click.echo(text if isinstance(action, Draw) else f"  {text}")

    game = play_game(seed, setup=make_setup(edition, sokol, gate_guard), on_action=on_action)
    click.echo()
    click.echo(render_castle(game.state))
    click.echo()
    click.echo(breakdown(game.state, lang))


@main.command()
@click.option("--set", "set_name", type=click.Choice(["zamek", "sokol"]), default="zamek", show_default=True,
              help="zamek: the 60 base tiles; sokol: the 18 Sokół tiles (--stats plays them with the base set).")
@click.option("--stats", "games", type=int, default=None, metavar="GAMES", help="Measure random play instead.")
@click.option("--seed", type=int, default=1, show_default=True, help="First seed for --stats.")
def tiles(set_name: str, games: int | None, seed: int) -> None:
    """Print every tile of a set, or (with --stats N) its statistics over N random games."""
    try:
        tileset = load_tileset(set_name)
    except DataError as exc:
        raise click.ClickException(str(exc)) from None
    if games is None:
        for tile in tileset.tiles:
            click.echo(render_tile(tile))
            click.echo()
        return
    click.echo(f"Tile set {set_name}")
    for label, count in structure_table(tileset):
        click.echo(f"  {label:<42} {count:>4}")
    setup = Setup(sokol=set_name == "sokol")
    missing = unplaceable_in_empty_castle(setup)
    click.echo(f"  {'tiles with no placement in the empty castle':<42} {len(missing):>4} {' '.join(missing)}")
    click.echo()
    click.echo(format_table(random_play_table(games, seed, setup), games, seed, setup))


def _load_record(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not valid JSON: {exc}") from None


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@LANG
def replay(file: Path, lang: str) -> None:
    """Verify a saved game by replaying it, and print its score breakdown."""
    try:
        state = records.replay(_load_record(file))
    except RecordError as exc:
        _fail(str(exc))
        return
    status = "finished" if state.is_over() else f"in progress (turn {state.turn})"
    click.echo(f"{file}: replays exactly, {status}")
    click.echo(breakdown(state, lang))


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the whole analysis as JSON.")
@click.option("--all", "every", is_flag=True, help="List every decision, not only the flagged ones.")
@LANG
def analyse(file: Path, as_json: bool, every: bool, lang: str) -> None:
    """Judge every decision of a saved game by the expert's estimate: the expected final lead before and
    after, the loss against the best move, and flags for inaccuracies, mistakes and blunders."""
    from zamek.castle.analysis import analyse as analyse_record
    try:
        raw = _load_record(file)
        result = analyse_record(raw)
        state = records.replay(raw, 0)
    except RecordError as exc:
        _fail(str(exc))
        return
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        return
    edition = state.setup.edition
    first = player_name(0, lang)
    click.echo(term("analysis-title", lang, edition, first=first))
    for player in (0, 1):
        summary = result.summary(player)
        click.echo("  " + term("analysis-summary", lang, edition, player=player_name(player, lang),
                               **{key: value for key, value in summary.items() if key != "player"}))
    thresholds = result.to_json()["thresholds"]
    click.echo("  " + term("analysis-thresholds", lang, edition, **thresholds))
    _, actions = records.read_record(raw)
    decisions = {d.index: d for d in result.decisions}
    for index, action in enumerate(actions):
        decision = decisions.get(index)
        if decision is not None and (every or decision.flag is not None):
            flag = term(f"flag:{decision.flag}", lang, edition) if decision.flag else "ok"
            click.echo(term("analysis-line", lang, edition, number=index + 1, flag=flag, loss=decision.loss,
                            before=f"{decision.lead_before:+.1f}", after=f"{decision.lead_after:+.1f}"))
            click.echo("    " + term("analysis-played", lang, edition, move=_described(state, decision.played, lang)))
            if decision.played != decision.best:
                click.echo("    " + term("analysis-best", lang, edition, move=_described(state, decision.best, lang)))
        state.apply(action)


def _described(state: GameState, move: tuple[str, ...], lang: str) -> str:
    """A move (actions in notation) in words, for the position it is played in."""
    position = state.copy()
    words = []
    for text in move:
        action = parse_action(text)
        words.append(describe_move(position, action, lang))
        position.apply(action)
    return "; ".join(words)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--move", type=int, default=None, help="Show the castle after this many moves (default: all).")
@LANG
def show(file: Path, move: int | None, lang: str) -> None:
    """Print the castle of a saved game, at the end or after a given move."""
    try:
        state = records.replay(_load_record(file), upto=move)
    except RecordError as exc:
        _fail(str(exc))
        return
    click.echo(render_castle(state))
    click.echo()
    click.echo(f"{player_name(0, lang)}: {state.scores[0]}   {player_name(1, lang)}: {state.scores[1]}")
    for item in state.log[-3:]:
        click.echo(f"  #{item.turn} {item_line(item, lang)}")


@main.command()
@click.option("--games", type=int, default=10, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Game i uses seed SEED + i.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game, then a summary line.")
@click.option("--save", type=click.Path(path_type=Path, file_okay=False), default=None, help="Save each game here.")
@rule_options
def selfplay(
    games: int, seed: int, as_json: bool, save: Path | None, edition: str, sokol: bool, gate_guard: bool
) -> None:
    """Play random-vs-random games."""
    setup = make_setup(edition, sokol, gate_guard)
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    wins = [0, 0, 0]
    total_scores = [0, 0]
    for i in range(games):
        game = play_game(seed + i, setup=setup)
        state = game.state
        result = state.result()
        assert result is not None
        wins[2 if len(result.winners) == 2 else result.winners[0]] += 1
        total_scores[0] += state.scores[0]
        total_scores[1] += state.scores[1]
        if save is not None:
            rec = records.make_record(game.setup, game.seed, game.actions, state)
            (save / f"game-{game.seed}.json").write_text(json.dumps(rec, indent=1), encoding="utf-8")
        line = {
            "seed": game.seed,
            "rules": setup.name,
            "first_player": game.setup.first_player,
            "scores": state.scores,
            "tiles_placed": len(state.placements),
            "tiles_discarded": len(state.discarded),
            "actions": len(game.actions),
        }
        if as_json:
            click.echo(json.dumps(line))
        else:
            click.echo(f"game {game.seed}: {state.scores[0]}-{state.scores[1]}, "
                       f"{line['tiles_placed']} placed, {line['tiles_discarded']} discarded")
    summary = {"rules": setup.name, "games": games, "wins": wins[:2], "draws": wins[2],
               "mean_scores": [round(s / max(games, 1), 2) for s in total_scores]}
    click.echo(json.dumps({"summary": summary}) if as_json else f"summary: {summary}")


@main.command()
@click.option("--players", required=True, help="Two bots or levels, e.g. hard,greedy (see 'zamek bots').")
@click.option("--games", type=int, default=20, show_default=True, help="Games in all; seats alternate.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", type=int, default=1, show_default=True, help="Processes to play games in parallel.")
@click.option("--json", "json_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also write the results, game by game, to this JSON file (kept up to date as games finish).")
@click.option("--resume", is_flag=True,
              help="Keep the games already in the --json file (an interrupted run of this match) and play the rest.")
@click.option("--quiet", is_flag=True, help="Do not print a line on standard error as each game finishes.")
@rule_options
def arena(players: str, games: int, seed: int, workers: int, json_path: Path | None, resume: bool, quiet: bool,
          edition: str, sokol: bool, gate_guard: bool) -> None:
    """Play two computer players against each other in both seat orders and report their strength."""
    names = [p.strip() for p in players.split(",")]
    if len(names) != 2:
        raise click.UsageError("--players takes two names separated by a comma, e.g. hard,greedy")
    for name in names:
        try:
            make_bot(name)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    setup = make_setup(edition, sokol, gate_guard)
    already = games_to_resume(json_path, (names[0], names[1]), setup.name, games, seed) if resume else []

    started = time.monotonic()

    def after_each_game(so_far: ArenaReport, result: GameResult) -> None:
        # A match can take hours: show it moving, say when it should end, and keep what it has if it is stopped.
        if not quiet:
            played_now = len(so_far.games) - len(already)
            left = (time.monotonic() - started) / played_now * (so_far.planned - len(so_far.games))
            click.echo(f"{progress_line(so_far, result)}; about {left / 60:.0f} min left", err=True)
        if json_path is not None:
            write_json_replacing(json_path, so_far.to_json())

    report = run_arena(names[0], names[1], games, seed, setup, workers, after_each_game, already)
    click.echo(report.text())
    if json_path is not None:
        write_json_replacing(json_path, report.to_json())


def games_to_resume(path: Path | None, players: tuple[str, str], rules: str, games: int, seed: int
                    ) -> list[GameResult]:
    """The games an interrupted run of this match left in ``path`` (none if there is no file yet); a file of
    another match, or with games this one would not play (and so would drop), is refused."""
    if path is None:
        raise click.UsageError("--resume needs --json FILE, the file the interrupted run wrote")
    if not path.exists():
        return []
    try:
        found_players, found_rules, found = results_from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise click.UsageError(f"{path}: {exc}") from None
    if (found_players, found_rules) != (players, rules):
        raise click.UsageError(f"{path} holds {','.join(found_players)} in {found_rules}, not "
                               f"{','.join(players)} in {rules}")
    planned = set(schedule(2, games, seed))
    outside = [g for g in found if (g.seed, g.a_seat) not in planned]
    if outside:
        raise click.UsageError(f"{path} holds games this match would not play (seed {outside[0].seed}): give the "
                               f"--games and --seed of the run that wrote it")
    return found


def pair_file_name(a: str, b: str) -> str:
    """The file of one ladder match: the two names, with what a file name cannot hold (``:``, ``@``, ``/``) as ``_``."""
    return re.sub(r"[^A-Za-z0-9.-]", "_", f"{a}_vs_{b}") + ".json"


def write_json_replacing(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` through a temporary file, so a reader never sees half a file."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(data, indent=1), encoding="utf-8")
    partial.replace(path)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--db", "db_url", default=None,
              help="SQLAlchemy database URL (default: a SQLite file in your user data directory).")
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
def play(host: str, port: int, db_url: str | None, no_browser: bool) -> None:
    """Play in the browser: start the local web app and open it."""
    from zamek.server.server import serve  # the web stack loads only for this command

    serve(host, port, db_url, open_browser=not no_browser)


@main.command(name="serve")
@click.option("--db", "db_url", required=True, envvar="ZAMEK_DB",
              help="The database every worker shares, e.g. postgresql://zamek@localhost/zamek (or $ZAMEK_DB).")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True, help="Web worker processes.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (the reverse proxy's).")
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--computer-processes", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes each worker thinks out the computer's turns in.")
@click.option("--allowed-host", "allowed_hosts", multiple=True,
              help="A name the site is served as (its Host header), e.g. zamek.example.org; repeat for more. "
                   "Default: this machine's names.")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True,
              help="The reverse proxies whose X-Forwarded-For/-Proto headers are believed ('*': any).")
@click.option("--computer-delay", type=click.FloatRange(0, 60), default=0.8, show_default=True,
              help="Seconds the computer waits before replying (a person may take their move back meanwhile).")
@click.option("--computer-lease", type=click.FloatRange(1, 3600), default=15.0, show_default=True,
              help="Seconds a worker holds a computer's turn it took; if it dies, another takes the turn after this.")
def serve_command(db_url: str, workers: int, host: str, port: int, computer_processes: int,
                  allowed_hosts: tuple[str, ...], forwarded_allow_ips: str, computer_delay: float,
                  computer_lease: float) -> None:
    """Run the web app for many players: several worker processes on one shared database (PostgreSQL).

    The database's schema is upgraded first. Put it behind a reverse proxy that terminates TLS."""
    from sqlalchemy.exc import SQLAlchemyError

    from zamek.server.server import serve_workers

    try:
        serve_workers(db_url, workers, host, port, computer_processes, allowed_hosts, forwarded_allow_ips,
                      computer_delay, computer_lease)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    except SQLAlchemyError as exc:
        raise click.ClickException(f"cannot use the database: {exc.__class__.__name__}: {exc}") from None


@main.command(name="migrate")
@click.option("--db", "db_url", required=True, envvar="ZAMEK_DB", help="The database to upgrade (or $ZAMEK_DB).")
def migrate_command(db_url: str) -> None:
    """Upgrade a database's schema to this version's (``zamek serve`` and ``zamek play`` also do it when they
    start)."""
    from sqlalchemy.exc import SQLAlchemyError

    from zamek.server.migrate import current, head, upgrade
    from zamek.server.tables import make_engine

    engine = make_engine(db_url)
    try:
        before = current(engine)
        upgrade(engine)
        click.echo(f"schema {before or 'none'} -> {current(engine)} (this version's: {head()})")
    except SQLAlchemyError as exc:
        raise click.ClickException(f"cannot upgrade the database: {exc.__class__.__name__}: {exc}") from None
    finally:
        engine.dispose()


@main.command(name="ladder")
@click.option("--players", default="random,beginner,easy,medium,hard", show_default=True)
@click.option("--games", type=int, default=200, show_default=True, help="Games per pair; seats alternate.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", type=int, default=1, show_default=True)
@click.option("--json-dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Also write each pair's results, game by game, to A_vs_B.json in this folder (as arena --json).")
@click.option("--resume", is_flag=True,
              help="Keep the games already in the --json-dir files (an interrupted ladder) and play the rest.")
@click.option("--quiet", is_flag=True, help="Do not print a line on standard error as each game finishes.")
@rule_options
def ladder_command(players: str, games: int, seed: int, workers: int, json_dir: Path | None, resume: bool,
                   quiet: bool, edition: str, sokol: bool, gate_guard: bool) -> None:
    """Play every pair of levels and print the ladder table (row's win rate against column, 95% CI)."""
    names = [p.strip() for p in players.split(",")]
    for name in names:
        try:
            make_bot(name)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    setup = make_setup(edition, sokol, gate_guard)
    if resume and json_dir is None:
        raise click.UsageError("--resume needs --json-dir DIR, the folder the interrupted ladder wrote")
    files = {pair: json_dir / pair_file_name(*pair) for pair in ladder_pairs(names)} if json_dir else {}
    already = {pair: games_to_resume(path, pair, setup.name, games, seed)
               for pair, path in files.items()} if resume else {}
    if json_dir is not None:
        json_dir.mkdir(parents=True, exist_ok=True)

    def after_each_game(so_far: ArenaReport, result: GameResult) -> None:
        if not quiet:
            click.echo(progress_line(so_far, result), err=True)
        if json_dir is not None:
            write_json_replacing(files[so_far.players], so_far.to_json())

    reports = ladder(names, games, seed, setup, workers, after_each_game, already)
    for report in reports:
        if json_dir is not None:
            write_json_replacing(files[report.players], report.to_json())
        click.echo(report.text())
    click.echo()
    click.echo(ladder_table(names, reports))


@main.command(name="train")
@click.option("--bot", default="medium", show_default=True,
              help="The bot whose self-play positions the value is fitted to.")
@click.option("--games", type=click.IntRange(20), default=5000, show_default=True, help="Self-play games.")
@click.option("--seed", type=int, default=600000, show_default=True)
@click.option("--hidden", type=click.IntRange(1, 32), default=32, show_default=True, help="Hidden units.")
@click.option("--epochs", type=click.IntRange(0), default=6, show_default=True, help="Passes over the positions.")
@click.option("--eval-games", type=click.IntRange(0), default=200, show_default=True,
              help="Games against hard after every pass (the learning curve); 0: none.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default=Path("value_net.json"),
              show_default=True, help="Where to write the weights.")
@click.option("--curve", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also write the learning curve to CURVE.json and, with matplotlib, CURVE.png.")
@rule_options
def train_command(bot: str, games: int, seed: int, hidden: int, epochs: int, eval_games: int, workers: int,
                  out: Path, curve: Path | None, edition: str, sokol: bool, gate_guard: bool) -> None:
    """Train the expert's value network from scratch on self-play (numpy; the same seed makes the same file)."""
    import time

    from zamek.castle.arena import VALUE_SEARCH
    from zamek.castle.bots.network import net_to_json
    from zamek.castle.training.train_net import train

    try:
        make_bot(bot)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    setup = make_setup(edition, sokol, gate_guard)
    started = time.perf_counter()
    try:
        training = train(bot, games, seed, hidden, epochs, eval_games, setup, workers, click.echo)
    except (RuntimeError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    out.write_text(net_to_json(training.net), encoding="utf-8")
    seconds = time.perf_counter() - started
    click.echo(f"written to {out} ({out.stat().st_size} bytes) in {seconds:.0f} s")
    if curve is not None:
        points = [c.to_json() for c in training.curve]
        write_json_replacing(curve.with_suffix(".json"), {"bot": bot, "games": games, "seed": seed, "hidden": hidden,
                                                          "eval": f"{VALUE_SEARCH} with the value vs hard",
                                                          "seconds": round(seconds), "curve": points})
        _plot_curve(curve.with_suffix(".png"), points, "epoch", "training pass (epoch)", "held_out_rmse",
                    "held-out error (points)", "hard", "Value network: strength (mcts:128 with it) and error")


def _plot_curve(path: Path, points: list[dict[str, Any]], step: str, step_label: str, error: str,
                error_label: str, against: str, title: str) -> None:
    """Draw a learning curve: the points won against ``against`` and the fit's error, by training step."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        click.echo("matplotlib is not installed: no picture drawn", err=True)
        return
    figure, left = plt.subplots(figsize=(6, 3.6))
    steps = [p[step] for p in points]
    rated = [p for p in points if p["win_rate"] is not None]
    left.plot([p[step] for p in rated], [100 * p["win_rate"] for p in rated], "o-", color="tab:blue")
    left.axhline(50, color="grey", lw=0.8, ls=":")
    left.set_xlabel(step_label)
    left.set_xticks(steps)
    left.set_ylabel("points won (%)", color="tab:blue")
    right = left.twinx()
    right.plot(steps, [p[error] for p in points], "s--", color="tab:red")
    right.set_ylabel(error_label, color="tab:red")
    spec, at, value_file = against.partition("@")
    opponent = f"{spec}@{Path(value_file).name}" if at else against  # a value file by its name, not its path
    figure.suptitle(f"{title}\nagainst {opponent}", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


@main.command(name="train-value")
@click.option("--bot", default="greedy", show_default=True, help="The bot whose self-play games the first round fits.")
@click.option("--games", default="2000,2000,2000,2000,2000", show_default=True,
              help="Games per round, comma separated; each later round plays greedy over the value fitted so far.")
@click.option("--seed", type=int, default=100000, show_default=True)
@click.option("--workers", type=int, default=1, show_default=True)
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False), default=Path("value_model.json"),
              show_default=True, help="Where to write the model (the bots use src/zamek/castle/data/value_model.json).")
@click.option("--eval-games", type=click.IntRange(0), default=0, show_default=True,
              help="After every round, games of the hard level's search with the value so far against "
                   "--eval-against (the learning curve); 0: none.")
@click.option("--eval-against", default="hard", show_default=True,
              help="The opponent of the learning curve, e.g. mcts:128@OLD_VALUE.json for a fixed one.")
@click.option("--curve", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Also write the learning curve to CURVE.json and, with matplotlib, CURVE.png.")
@rule_options
def train_value(bot: str, games: str, seed: int, workers: int, out: Path, eval_games: int, eval_against: str,
                curve: Path | None, edition: str, sokol: bool, gate_guard: bool) -> None:
    """Fit the learned position value (used by mcts and learned) to self-play games, round by round."""
    import time

    from zamek.castle.arena import VALUE_SEARCH, measure_value
    from zamek.castle.training.fit_value import Fit, train

    try:
        make_bot(bot)
        make_bot(eval_against)
        rounds = [int(n) for n in games.split(",")]
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if not rounds or min(rounds) < 10:
        raise click.UsageError("--games needs at least 10 games in every round, e.g. 2000,2000,2000")
    setup = make_setup(edition, sokol, gate_guard)
    started = time.perf_counter()
    points: list[dict[str, Any]] = []

    def report(number: int, result: Fit, model: str) -> None:
        line = (f"round {number + 1}: {result.samples} positions; error of the predicted final lead "
                f"{result.residual_sd:.1f} points (score difference alone: {result.baseline_sd:.1f}); "
                f"win scale {result.model.win_scale:.0f}")
        point: dict[str, Any] = {"round": number + 1, "games": sum(rounds[: number + 1]),
                                 "positions": result.samples, "residual_sd": round(result.residual_sd, 3),
                                 "wins": 0, "losses": 0, "draws": 0, "played": 0, "win_rate": None}
        if eval_games:
            match = measure_value(model, eval_against, eval_games, seed, setup, workers)
            mine, theirs, draws = match.summaries()
            rate, low, high = match.win_rate()
            point |= {"wins": mine.wins, "losses": theirs.wins, "draws": draws, "played": len(match.games),
                      "win_rate": round(rate, 4)}
            line += (f"; {VALUE_SEARCH} with it vs {eval_against} {point['win_rate']:.1%} (95% CI "
                     f"{low:.1%}-{high:.1%}, {mine.wins}-{theirs.wins}-{draws})")
        points.append(point)
        click.echo(line)

    _, text = train(bot, rounds, seed, setup, workers, report)
    out.write_text(text, encoding="utf-8")
    seconds = time.perf_counter() - started
    click.echo(f"written to {out} in {seconds:.0f} s")
    if curve is not None:
        write_json_replacing(curve.with_suffix(".json"), {
            "bot": bot, "games per round": rounds, "seed": seed, "rules": setup.name,
            "eval": f"{VALUE_SEARCH} with the value vs {eval_against}", "eval_games": eval_games,
            "seconds": round(seconds), "curve": points})
        if eval_games:
            _plot_curve(curve.with_suffix(".png"), points, "round", "training round",
                        "residual_sd", "error of the predicted lead (points)", eval_against,
                        f"Learned value: strength ({VALUE_SEARCH} with it) and error")


@main.command()
def bots() -> None:
    """List the computer players and the named levels."""
    click.echo("bots: random, greedy[:N placements examined], learned[:N placements examined], mcts[:N iterations]")
    for level, spec in LEVELS.items():
        click.echo(f"  {level:<9} = {spec}")
    click.echo("stronger:")
    for level, spec in STRONGER_LEVELS.items():
        offered = "" if level in OFFERED_LEVELS else "; not offered in the web app"
        click.echo(f"  {level:<9} = {spec}, {DEEP_WIDTH} candidate moves a node (hard: 8), "
                   f"at most {STRONGER_CAPS[level]:g} s a decision{offered}")
    click.echo(f"core: {fast.core_description()}")


@main.command(name="env-bench")
@click.option("--games", "n", type=click.IntRange(1, 65536), default=1024, show_default=True,
              help="Games the vector environment steps together.")
@click.option("--seconds", type=click.FloatRange(0.1, 600), default=3.0, show_default=True,
              help="How long each figure is measured.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object instead.")
def env_bench(n: int, seconds: float, as_json: bool) -> None:
    """Measure the research environments' steps per second on one core (needs the env extra)."""
    try:
        from zamek.env import bench as env_bench_module
    except ImportError as exc:
        raise click.UsageError(str(exc)) from None
    with env_bench_module.one_core() as core:
        figures = env_bench_module.run(n, seconds)
    if as_json:
        click.echo(json.dumps({"core": core, "games": n, "seconds": seconds,
                               "figures": [f.as_dict() for f in figures]}))
        return
    click.echo(f"on one core ({'cpu ' + str(core) if core is not None else 'not pinned'}), {seconds:g} s a figure")
    click.echo("\n".join(env_bench_module.lines(figures)))


main.add_command(knights)


if __name__ == "__main__":
    main()
