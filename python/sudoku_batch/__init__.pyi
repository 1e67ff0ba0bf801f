"""Type stubs of sudoku_batch: shapes and dtypes are in each docstring of __init__.py."""

import os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

# An (N, 81) or (N, 9, 9) integer array (0 = empty), a sequence of 81-character str or
# bytes, or an Arrow string array (any object with __arrow_c_array__ / __arrow_c_stream__).
Puzzles = Union[npt.ArrayLike, Sequence[str], Sequence[bytes], Any]

SOLVED: int  # 0
MULTIPLE: int  # 1
UNSOLVABLE: int  # 2
INVALID: int  # 3
STATUS_NAMES: tuple[str, str, str, str]

@dataclass(frozen=True)
class Solved:
    solutions: npt.NDArray[np.uint8]  # (N, 81)
    status: npt.NDArray[np.uint8]  # (N,)
    counts: npt.NDArray[np.uint32]  # (N,)
    guesses: npt.NDArray[np.uint32]  # (N,)
    nanos: npt.NDArray[np.uint64]  # (N,) nanoseconds
    errors: Dict[int, str]
    def __len__(self) -> int: ...
    def status_names(self) -> npt.NDArray[np.object_]: ...

@dataclass(frozen=True)
class Augmented:
    puzzles: npt.NDArray[np.uint8]  # (N*k, 81)
    solutions: npt.NDArray[np.uint8]  # (N*k, 81)
    transforms: Optional[npt.NDArray[np.bytes_]]  # (N*k,) S31
    source: npt.NDArray[np.int64]  # (N*k,)

@dataclass(frozen=True)
class Ratings:
    rating: npt.NDArray[np.float64]  # (N,)
    min: npt.NDArray[np.uint32]
    median: npt.NDArray[np.float64]
    max: npt.NDArray[np.uint32]
    singles_only: npt.NDArray[np.bool_]
    rated: npt.NDArray[np.bool_]

def solve(
    puzzles: Puzzles, *, limit: int = 2, first: bool = False, threads: Optional[int] = None
) -> Solved: ...
def canonical(puzzles: Puzzles, *, threads: Optional[int] = None) -> npt.NDArray[np.uint8]: ...
def augment(
    puzzles: Puzzles,
    solutions: Optional[Puzzles] = None,
    k: int = 8,
    seed: int = 0,
    return_transforms: bool = True,
    *,
    key_start: int = 0,
    threads: Optional[int] = None,
) -> Augmented: ...
def apply_transforms(grids: Puzzles, transforms: Union[npt.ArrayLike, Sequence[str]]) -> npt.NDArray[np.uint8]: ...
def invert(grids: Puzzles, transforms: Union[npt.ArrayLike, Sequence[str]]) -> npt.NDArray[np.uint8]: ...
def rate(
    puzzles: Puzzles, *, samples: int = 10, seed: int = 0, threads: Optional[int] = None
) -> Ratings: ...
@dataclass(frozen=True)
class Generated:
    puzzles: npt.NDArray[np.uint8]  # (n, 81)
    solutions: npt.NDArray[np.uint8]  # (n, 81)
    clues: npt.NDArray[np.uint32]  # (n,)
    rating: npt.NDArray[np.float64]
    bin: npt.NDArray[np.int64]
    seed: npt.NDArray[np.uint64]
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
    exclude: Optional[Puzzles] = None,
    budget: Optional[int] = None,
    threads: Optional[int] = None,
) -> Generated: ...
@dataclass(frozen=True)
class Traces:
    status: npt.NDArray[np.uint8]  # (N,)
    solutions: npt.NDArray[np.uint8]  # (N, 81)
    hardest_code: npt.NDArray[np.int16]  # (N,)
    steps: npt.NDArray[np.uint32]
    placements: npt.NDArray[np.uint32]
    eliminations: npt.NDArray[np.uint32]
    guesses: npt.NDArray[np.uint32]
    backtracks: npt.NDArray[np.uint32]
    max_depth: npt.NDArray[np.uint32]
    shah: npt.NDArray[np.uint8]  # (N, 325)
    steps_json: Optional[List[str]]

def trace(
    puzzles: Puzzles,
    *,
    json: bool = False,
    placements_only: bool = False,
    threads: Optional[int] = None,
) -> Traces: ...
def overlap(train: Puzzles, test: Puzzles, *, threads: Optional[int] = None) -> npt.NDArray[np.int64]: ...
def dedupe(puzzles: Puzzles, *, threads: Optional[int] = None) -> npt.NDArray[np.int64]: ...
def read(
    path: Union[str, os.PathLike[str]],
    *,
    batch_size: int = 65536,
    puzzle_column: Optional[str] = None,
    solution_column: Optional[str] = None,
    no_header: bool = False,
    delimiter: Optional[str] = None,
) -> Iterator[Dict[str, Any]]: ...
def to_strings(grids: Puzzles, blank: str = ".") -> list[str]: ...
def from_strings(strings: Puzzles) -> npt.NDArray[np.uint8]: ...
