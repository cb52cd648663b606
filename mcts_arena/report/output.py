"""What `arena report PATH...` outputs: test-position suite summaries for suite directories, and
for results directories the tables in the chosen format with their pictures written into a
folder (an html page there too). Read-only over the stores."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from mcts_arena.errors import UserError
from mcts_arena.report import plots, render, suites, tables, tune
from mcts_arena.results.suites import has_suite_results, summarise


def report(paths: list[str], fmt: str = "text", ci: str = "auto", out: str | None = None,
           compare: str | None = None, figures: str = "png", dpi: int = 100,
           index: list[dict] | None = None) -> Iterator[str]:
    """The texts to print, in order (each ends with a newline), all made before the first is
    given: a refusal is the only line printed, never the end of a half-printed report; the
    pictures as `figures` (png, svg, pdf) at `dpi`; `index`: the results roots' stores
    (cli/report.py's expand_roots), shown before the experiments' tables with each one's
    pairings counted from its rows."""
    return iter(list(_report(paths, fmt, ci, out, compare, figures, dpi, index)))


def _report(paths: list[str], fmt: str, ci: str, out: str | None, compare: str | None,
            figures: str, dpi: int, index: list[dict] | None) -> Iterator[str]:
    if fmt == "html" and figures == "pdf":
        # checked before anything is read or written: a page cannot show a PDF inline
        raise UserError("--figures pdf cannot be embedded in an html page; use png or svg "
                        "with --format html, or pdf with markdown or latex")
    suite_dirs = [p for p in paths if has_suite_results(p)]
    for p in suite_dirs:
        summary = summarise(p)
        yield (json.dumps(summary, indent=2) + "\n" if fmt == "json"
               else suites.format_table(summary))
    paths = [p for p in paths if p not in suite_dirs]
    if not paths and index is None:
        return
    if fmt == "text" and index is None:
        yield from _tunes(paths)
    folder = Path(out) if out else Path(paths[0]) / "report"
    if folder.exists() and not folder.is_dir():
        raise UserError(f"--out {folder}: is a file, expected a folder for the report")
    rep = tables.build_report(paths, ci=ci, compare=compare)
    if index is not None:
        rows_of = {str(Path(p)): e.rows for p, e in zip(paths, rep.experiments)}
        rep.index = [{**x, "pairings": len(rows_of.get(str(Path(x["directory"])), ()))}
                     for x in index]
        if fmt == "text":       # the index first, then the tunes, then every table
            yield render.index_text(rep.index)
            yield from _tunes(paths)
    try:
        # several stores and no --out: each store's pictures in its own report/ folder
        plots.write_figures(rep, folder, figures, dpi, own_folders=out is None and len(paths) > 1)
        if fmt in DOCUMENTS:
            # the document beside its pictures, linking them by name (the folder can be moved
            # or copied into a paper's sources as it is) ...
            folder.mkdir(parents=True, exist_ok=True)
            rep.base = str(folder)
            page = folder / DOCUMENTS[fmt]
            write_text(page, render.render(rep, fmt))
            if fmt == "html":
                yield f"wrote {page}\n"
                return
            rep.base = None         # ... and on stdout, linking them from the current directory
        text = render.render(rep, fmt)
    except OSError as e:
        raise UserError(f"cannot write the report in {folder}: {e.strerror or e}") from None
    yield text


def _tunes(paths: list[str]) -> Iterator[str]:
    """Each tune's path, estimate and confirmation (printed before the tables)."""
    for p in paths:
        tuned = tune.text_of(p)
        if tuned:
            yield tuned + "\n"


#: The formats also written as a document into the report's folder, and its file name.
DOCUMENTS = {"html": "report.html", "markdown": "report.md", "latex": "report.tex"}


def write_text(path: Path, text: str) -> None:
    """Write `path` whole or not at all (a temporary file renamed over it)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
