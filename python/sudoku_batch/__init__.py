"""Solve, canonicalise, augment and rate Sudoku puzzles in batches: numpy or Arrow in,
numpy out.

Puzzles are given in any of these forms (``Puzzles`` below):

- an integer array of shape ``(N, 81)`` (or ``(N, 9, 9)``, or ``(81,)`` for one puzzle),
  row-major, ``0`` = empty cell, ``1``-``9`` = given digit (the HRM/TRM layout; ``uint8`` is
  read in place, other integer dtypes are converted);
- a list of 81-character strings (``.``, ``0`` or ``_`` for an empty cell), ``str`` or
  ``bytes``;
- an Arrow string array (Utf8, LargeUtf8 or Utf8View; binary too), chunked or not: any
  object with ``__arrow_c_array__`` or ``__arrow_c_stream__`` (pyarrow, polars, arro3, ...),
  e.g. ``table["quizzes"]``.

Every function releases the GIL while it works and runs on a rayon thread pool:
``threads=None`` uses the process-wide pool (``RAYON_NUM_THREADS`` threads, else one per
CPU), ``threads=n`` a pool of ``n`` threads for that call. Ctrl-C stops a long call with
``KeyboardInterrupt``. A process forked after a call keeps working (the child builds its
own pool instead of the one it cannot inherit).

Status codes (``Solved.status``), stable across versions: ``SOLVED`` = 0 (exactly one
solution, or the first one with ``first=True``), ``MULTIPLE`` = 1, ``UNSOLVABLE`` = 2,
``INVALID`` = 3 (not a puzzle: wrong length, a bad character, or two equal givens in a
unit; ``Solved.errors`` says why).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional

import numpy as np

from . import _native

__all__ = [
    "SOLVED",
    "MULTIPLE",
    "UNSOLVABLE",
    "INVALID",
    "STATUS_NAMES",
    "Solved",
    "Ratings",
    "Augmented",
    "Generated",
    "Traces",
    "solve",
    "canonical",
    "augment",
    "apply_transforms",
    "invert",
    "rate",
    "generate",
    "trace",
    "overlap",
    "dedupe",
    "read",
    "to_strings",
    "from_strings",
]

SOLVED = 0
MULTIPLE = 1
UNSOLVABLE = 2
INVALID = 3
#: The status words of the CLI's outputs, indexed by status code.
STATUS_NAMES = ("solved", "multiple", "unsolvable", "invalid")

# Rayon's global pool has no threads in a forked child: calls there build a pool of their own.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_native.after_fork_child)


def _puzzles(puzzles: Any) -> Any:
    """One of the three forms the native module reads: a C-contiguous ``(N, 81)`` uint8
    array, a list of texts, or an Arrow object."""
    if hasattr(puzzles, "__arrow_c_array__") or hasattr(puzzles, "__arrow_c_stream__"):
        if not isinstance(puzzles, np.ndarray):
            return puzzles
    if isinstance(puzzles, (str, bytes)):
        return [puzzles]
    if isinstance(puzzles, (list, tuple)) and not puzzles:
        return np.zeros((0, 81), np.uint8)
    if isinstance(puzzles, list) and puzzles and isinstance(puzzles[0], (str, bytes)):
        return puzzles
    if isinstance(puzzles, tuple) and puzzles and isinstance(puzzles[0], (str, bytes)):
        return list(puzzles)
    arr = np.asarray(puzzles)
    if arr.dtype.kind in "USO":
        return [x.decode() if isinstance(x, bytes) else x for x in arr.reshape(-1).tolist()]
    if arr.dtype.kind not in "iub":
        raise TypeError(f"puzzle cells must be integers 0-9, not {arr.dtype}")
    if arr.ndim == 1 and arr.shape[0] == 81:
        arr = arr.reshape(1, 81)
    elif arr.ndim == 3 and arr.shape[1:] == (9, 9):
        arr = arr.reshape(arr.shape[0], 81)
    elif arr.ndim == 1 and arr.shape[0] == 0:
        arr = arr.reshape(0, 81)
    if arr.ndim != 2 or arr.shape[1] != 81:
        raise ValueError(f"puzzle array has shape {arr.shape}, expected (N, 81) or (N, 9, 9)")
    if arr.dtype != np.uint8:
        # A value outside 0-9 must not wrap round to a digit: it becomes 255, which the
        # native side reports as an invalid cell of that row.
        bad = (arr < 0) | (arr > 9)
        arr = np.where(bad, 255, arr).astype(np.uint8)
    return np.ascontiguousarray(arr)


@dataclass(frozen=True)
class Solved:
    """What ``solve`` found, one entry per input row, in input order.

    Attributes:
        solutions: ``(N, 81) uint8``, the first solution found, ``1``-``9`` in every cell;
            all ``0`` for a row without one (unsolvable or invalid).
        status: ``(N,) uint8``, ``SOLVED`` / ``MULTIPLE`` / ``UNSOLVABLE`` / ``INVALID``.
        counts: ``(N,) uint32``, solutions counted, up to ``limit`` (0 for an invalid row).
        guesses: ``(N,) uint32``, guesses the solver made on the row.
        nanos: ``(N,) uint64``, solver time per row in nanoseconds (monotonic clock).
        errors: ``{row: reason}`` for every ``INVALID`` row (0-based row index).
    """

    solutions: np.ndarray
    status: np.ndarray
    counts: np.ndarray
    guesses: np.ndarray
    nanos: np.ndarray
    errors: Dict[int, str]

    def __len__(self) -> int:
        return int(self.status.shape[0])

    def status_names(self) -> np.ndarray:
        """``(N,)`` array of the status words (``"solved"``, ``"multiple"``, ...)."""
        return np.asarray(STATUS_NAMES, dtype=object)[self.status]


def solve(
    puzzles: Any,
    *,
    limit: int = 2,
    first: bool = False,
    threads: Optional[int] = None,
) -> Solved:
    """Solves every puzzle; never raises for a bad row (its status is ``INVALID``).

    Args:
        puzzles: ``(N, 81)`` integer array (0 = empty), list of 81-character strings, or
            an Arrow string array (see the module docs).
        limit: count solutions up to this many; 2 tells a unique puzzle from one with
            several (``MULTIPLE``). Must be at least 1.
        first: stop at the first solution (``limit=1``): status ``SOLVED`` for every
            solvable puzzle, unique or not.
        threads: worker threads; ``None`` for the process-wide pool (``RAYON_NUM_THREADS``).

    Returns:
        A ``Solved`` with ``(N, 81)`` solutions and ``(N,)`` status, counts, guesses, nanos.

    Raises:
        TypeError, ValueError: for an argument that is not puzzles at all (wrong type, an
            array not shaped ``(N, 81)``), never for one bad row.
        KeyboardInterrupt: Ctrl-C during the call.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    limit = 1 if first else limit
    sol, status, counts, guesses, nanos, errors = _native.solve(
        _puzzles(puzzles), limit, threads
    )
    return Solved(sol, status, counts, guesses, nanos, errors)


def canonical(puzzles: Any, *, threads: Optional[int] = None) -> np.ndarray:
    """The canonical form (minlex: the lexicographically smallest isomorph, digits read
    row by row with 0 for blanks) of every puzzle, ``(N, 81) uint8``. Two puzzles are
    isomorphs exactly when their canonical forms are equal.

    Raises:
        ValueError: naming the first row that is not a puzzle (wrong length, bad cell).
    """
    return _native.canonical(_puzzles(puzzles), threads)


@dataclass(frozen=True)
class Augmented:
    """What ``augment`` made: ``k`` isomorphs of every input pair, row ``i * k + j`` the
    ``j``-th of input row ``i``.

    Attributes:
        puzzles: ``(N*k, 81) uint8``.
        solutions: ``(N*k, 81) uint8``.
        transforms: ``(N*k,)`` bytes ``S31`` transform codes ``T-RRRRRRRRR-CCCCCCCCC-DDDDDDDDD``
            (as the ``augment`` command writes them), or ``None`` when not asked for.
        source: ``(N*k,) int64``, the input row each output row came from.
    """

    puzzles: np.ndarray
    solutions: np.ndarray
    transforms: Optional[np.ndarray]
    source: np.ndarray


def augment(
    puzzles: Any,
    solutions: Any = None,
    k: int = 8,
    seed: int = 0,
    return_transforms: bool = True,
    *,
    key_start: int = 0,
    threads: Optional[int] = None,
) -> Augmented:
    """``k`` random isomorphs of every (puzzle, solution) pair, the same transform applied
    to both. The ``j``-th isomorph of row ``i`` is a pure function of ``(seed, key_start + i,
    j)``: the pairs ``sudoku-batch augment -n k --seed seed`` writes for record ``i``.

    Args:
        puzzles: ``N`` puzzles (any form ``solve`` takes).
        solutions: their ``N`` solutions; ``None`` solves the puzzles first (each must
            have exactly one solution).
        k: isomorphs per row.
        seed: seed of the draws.
        return_transforms: also return each row's transform code (for ``invert``).
        key_start: the record index of row 0 (when augmenting a dataset in slices).
        threads: used when ``solutions`` is ``None`` (see ``solve``).

    Raises:
        ValueError: naming the first row that is not a puzzle, a row without exactly one
            solution when ``solutions`` is ``None``, or unequal row counts.
    """
    if k < 0:
        raise ValueError(f"k must be at least 0, not {k}")
    puzzles = _puzzles(puzzles)
    if solutions is None:
        found = solve(puzzles, threads=threads)
        bad = np.flatnonzero(found.status != SOLVED)
        if bad.size:
            i = int(bad[0])
            why = found.errors.get(i, STATUS_NAMES[found.status[i]])
            raise ValueError(f"puzzles row {i} has no unique solution: {why}")
        solutions = found.solutions
    p, s, codes, source = _native.augment(
        puzzles, _puzzles(solutions), k, seed, key_start
    )
    transforms = codes.view("S31") if return_transforms else None
    return Augmented(p, s, transforms, source)


def _codes(transforms: Any) -> np.ndarray:
    """Transform codes as a flat uint8 array of ``N * 31`` ASCII bytes."""
    t = np.asarray(transforms)
    if t.dtype.kind == "U":
        if t.size and not (np.char.str_len(t) == 31).all():
            raise ValueError("a transform code is 31 characters: T-RRRRRRRRR-CCCCCCCCC-DDDDDDDDD")
        t = np.char.encode(t, "ascii")
    if t.dtype.kind != "S":
        raise TypeError(f"transforms must be strings (transform codes), not {t.dtype}")
    if t.dtype.itemsize != 31:
        if t.size and not (np.char.str_len(t) == 31).all():
            raise ValueError("a transform code is 31 characters: T-RRRRRRRRR-CCCCCCCCC-DDDDDDDDD")
        t = t.astype("S31")
    return np.ascontiguousarray(t.reshape(-1)).view(np.uint8)


def apply_transforms(grids: Any, transforms: Any) -> np.ndarray:
    """Row ``i`` of ``grids`` (puzzles, solutions or a model's predictions) transformed by
    transform code ``i``, ``(N, 81) uint8``.

    Args:
        grids: ``N`` grids (any puzzle form).
        transforms: ``N`` transform codes (``Augmented.transforms``, or a list of ``str``).

    Raises:
        ValueError: naming the first bad row or code, or unequal row counts.
    """
    return _native.apply_transforms(_puzzles(grids), _codes(transforms), False)


def invert(grids: Any, transforms: Any) -> np.ndarray:
    """Undoes ``apply_transforms``: row ``i`` of ``grids`` mapped back by the inverse of
    transform code ``i``, ``(N, 81) uint8``. Maps a model's answers on augmented puzzles
    back onto the original puzzle, e.g. to vote over isomorphs::

        aug = augment(puzzles, solutions, k=8)
        back = invert(model(aug.puzzles), aug.transforms)   # row i*8+j answers puzzle i
    """
    return _native.apply_transforms(_puzzles(grids), _codes(transforms), True)


@dataclass(frozen=True)
class Ratings:
    """What ``rate`` found, ``(N,)`` columns: the ``rate`` command's score.

    Attributes:
        rating: ``float64``, mean over the samples of ``log2(1 + guesses)``; NaN where not rated.
        min, max: ``uint32``, fewest and most guesses of a sample (0 where not rated).
        median: ``float64``, median guesses (NaN where not rated).
        singles_only: ``bool``, naked and hidden singles alone solve the puzzle.
        rated: ``bool``, whether the puzzle has exactly one solution (else it is not rated).
    """

    rating: np.ndarray
    min: np.ndarray
    median: np.ndarray
    max: np.ndarray
    singles_only: np.ndarray
    rated: np.ndarray


def rate(
    puzzles: Any, *, samples: int = 10, seed: int = 0, threads: Optional[int] = None
) -> Ratings:
    """Rates every puzzle as ``sudoku-batch rate --samples samples --seed seed`` does: the
    guesses of ``samples`` isomorphs of its canonical form (so every isomorph of a puzzle
    gets the same rating).

    Raises:
        ValueError: naming the first row that is not a puzzle.
    """
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    return Ratings(*_native.rate(_puzzles(puzzles), samples, seed, threads))


@dataclass(frozen=True)
class Generated:
    """What ``generate`` made: ``(n,)`` rows (fewer when ``complete`` is False).

    Attributes:
        puzzles: ``(n, 81) uint8``, row-major, 0 = empty; each has exactly one solution.
        solutions: ``(n, 81) uint8``, each puzzle's solution.
        clues: ``(n,) uint32``, givens of each puzzle.
        rating: ``(n,) float64``, the ``rate`` score with a ``rating`` target, else NaN.
        bin: ``(n,) int64``, 0-based bin of the ``rating`` target (0 without one).
        seed: ``(n,) uint64``, the seed the row was built from.
        complete: whether every bin got its rows (False: a bin spent its ``budget``).
    """

    puzzles: np.ndarray
    solutions: np.ndarray
    clues: np.ndarray
    rating: np.ndarray
    bin: np.ndarray
    seed: np.ndarray
    complete: bool


def generate(
    n: int,
    *,
    seed: int = 0,
    minimal: bool = False,
    symmetry: str = "none",
    clues: Optional[tuple[int, int]] = None,
    rating: Optional[str] = None,
    samples: int = 10,
    rating_seed: int = 0,
    exclude: Any = None,
    budget: Optional[int] = None,
    threads: Optional[int] = None,
) -> Generated:
    """``n`` new puzzles with exactly one solution: the rows ``sudoku-batch generate -n n
    --seed seed`` writes with the same options, the same at any thread count.

    Args:
        n: rows to make.
        seed: seed of the run.
        minimal: keep only puzzles from which no single given can be removed (checked).
        symmetry: the pattern of givens: ``none``, ``180``, ``90``, ``diagonal``,
            ``antidiagonal``, ``horizontal``, ``vertical`` or ``full``.
        clues: ``(min, max)`` givens, ``17 <= min <= max <= 81``.
        rating: a target over the ``rate`` score, as ``--rating`` takes it (``"5"``: five
            equal bins; ``"3:0..2"``; edges ``"0,1,2,inf"``).
        samples, rating_seed: the ``rate`` settings of the rating.
        exclude: puzzles (any form ``solve`` takes) of which no generated puzzle may be an
            isomorph (canonical forms compared, as ``overlap`` does).
        budget: candidates to try at most (default ``1000 * n``).
        threads: worker threads (default: every core).

    Raises:
        ValueError: an option out of range (naming it), or an ``exclude`` row that is not a
            puzzle.
    """
    if n < 0:
        raise ValueError(f"n must be at least 0, not {n}")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    excluded = None if exclude is None else _puzzles(exclude)
    return Generated(
        *_native.generate(
            n,
            seed,
            minimal,
            symmetry,
            clues if clues is not None else (17, 81),
            rating,
            samples,
            rating_seed,
            excluded,
            budget,
            threads,
        )
    )


@dataclass(frozen=True)
class Traces:
    """What ``trace`` found, one row per puzzle (the ``trace`` command's summary columns).

    Attributes:
        status: ``(N,) uint8``: ``SOLVED``, ``MULTIPLE`` (the trace reached one of several
            solutions), ``UNSOLVABLE`` or ``INVALID`` (two givens clash).
        solutions: ``(N, 81) uint8``, the grid the trace reached; all 0 where none.
        hardest_code: ``(N,) int16``, the hardest technique used (codes in docs/trace.md;
            17 = guess), -1 where no step was taken.
        steps, placements, eliminations, guesses, backtracks, max_depth: ``(N,) uint32``.
        shah: ``(N, 325) uint8``, the Shah et al. layout (docs/trace.md).
        steps_json: each puzzle's steps as a JSON array (the command's ``trace`` column),
            or ``None`` unless asked for with ``json=True``.
    """

    status: np.ndarray
    solutions: np.ndarray
    hardest_code: np.ndarray
    steps: np.ndarray
    placements: np.ndarray
    eliminations: np.ndarray
    guesses: np.ndarray
    backtracks: np.ndarray
    max_depth: np.ndarray
    shah: np.ndarray
    steps_json: Optional[List[str]]


def trace(
    puzzles: Any,
    *,
    json: bool = False,
    placements_only: bool = False,
    threads: Optional[int] = None,
) -> Traces:
    """Step-by-step solutions with named techniques, as ``sudoku-batch trace`` writes them:
    the summary columns, the Shah et al. rows and, with ``json=True``, the steps
    (``placements_only``: only the placements and guesses that stand in the solution).

    Raises:
        ValueError: naming the first row that is not a puzzle.
    """
    return Traces(*_native.trace(_puzzles(puzzles), placements_only, json, threads))


def overlap(train: Any, test: Any, *, threads: Optional[int] = None) -> np.ndarray:
    """For each test puzzle, the index of a train puzzle it is an isomorph of (equal
    included), else ``-1``: ``(M,) int64``. ``(overlap(train, test) >= 0).mean()`` is the
    share of the test set leaked into training.

    Raises:
        ValueError: naming the first row of either set that is not a puzzle.
    """
    return _native.overlap(_puzzles(train), _puzzles(test), threads)


def dedupe(puzzles: Any, *, threads: Optional[int] = None) -> np.ndarray:
    """For each puzzle, the index of the first earlier puzzle it is an isomorph of, else
    ``-1``: ``(N,) int64``. ``puzzles[dedupe(puzzles) < 0]`` keeps one of each class.

    Raises:
        ValueError: naming the first row that is not a puzzle.
    """
    return _native.dedupe(_puzzles(puzzles), threads)


def read(
    path: str | os.PathLike[str],
    *,
    batch_size: int = 65536,
    puzzle_column: Optional[str] = None,
    solution_column: Optional[str] = None,
    no_header: bool = False,
    delimiter: Optional[str] = None,
) -> Iterator[Dict[str, Any]]:
    """Reads any file the CLI reads (one puzzle per line, CSV/TSV, JSON Lines, ``.npy``;
    gzip/zstd/bzip2/xz/zip compressed; UTF-16), ``batch_size`` records at a time. (Parquet
    needs the CLI's ``parquet`` feature, which this package leaves out: read a Parquet
    column with pyarrow and give it to ``solve`` as it is.)

    Each batch is a dict:
        ``record``: ``(n,) int64``, 0-based record index in the file;
        ``line``: ``(n,) int64``, 1-based line where the record starts;
        ``puzzles``: ``(n, 81) uint8`` (all 0 for a row that is not a puzzle);
        ``valid``: ``(n,) bool``, whether the row's puzzle parsed;
        ``errors``: ``{i: reason}`` for the rows (index within the batch) that did not;
        ``solutions``: ``(n, 81) uint8`` stored solutions, or ``None`` when the batch has none;
        ``solution_errors``: ``{i: reason}`` for stored solutions that did not parse.

    Args:
        puzzle_column, solution_column: CSV/JSON column name (case-insensitive) or
            1-based index; found by name or content when not given.
        no_header: the CSV has no header row.
        delimiter: CSV delimiter; sniffed among ``,`` tab ``;`` ``|`` when not given.

    Raises:
        OSError: the file cannot be opened or read.
        ValueError: its layout cannot be worked out (e.g. no puzzle column).
    """
    reader = _native.Reader(
        os.fspath(path), batch_size, puzzle_column, solution_column, no_header, delimiter
    )
    return iter(reader)


def to_strings(grids: Any, blank: str = ".") -> list[str]:
    """Every row as an 81-character string, ``blank`` (``.`` or ``0``, say) for an empty cell.

    Raises:
        ValueError: naming the first row with a cell outside 0-9.
    """
    return _native.to_strings(_puzzles(grids), blank)


def from_strings(strings: Any) -> np.ndarray:
    """81-character puzzle strings (a list, or an Arrow string array) as an ``(N, 81)
    uint8`` array, 0 = empty.

    Raises:
        ValueError: naming the first string that is not a puzzle.
    """
    return _native.from_strings(_puzzles(strings))


def _fork_fallback() -> bool:
    """Whether ``threads=None`` calls build their own pool in this (forked) process."""
    return bool(_native.fork_fallback())

