"""The dynamic programme of the alignment (glossary.enrich.align): the best monotone set of links
between a rendering's paragraphs and the passages of its original, and how certain each link is.

``docs/alignment.md`` gives the method at length.
"""

from __future__ import annotations

import math

#: Bonus for each passage that gets a rendering (most passages have one).
RENDERED = 1.0
#: Bonus for each paragraph that renders something (most paragraphs do).
RENDERING = 3.0
#: Cost of each passage a paragraph leaves out between two passages it renders.
GAP_IN = 2.0
#: Cost of each passage left without a rendering between two paragraphs.
GAP_ACROSS = 0.5
#: Nats of margin for a confidence of 1 - 1/e.
MARGIN_SCALE = 4.0

NEG = float("-inf")


class _Tables:
    """The dynamic programme over paragraphs (rows) × passages (columns).

    A link set scores the sum of its links' scores, plus RENDERED for each passage it gives
    a rendering and RENDERING for each paragraph it pairs, minus GAP_IN for each passage a
    paragraph leaves out between two of its links, GAP_ACROSS for each passage left out
    between two paragraphs, and ``sharing[j]`` when passage j is shared by two neighbouring
    paragraphs. ``F[i][j]`` is the best score of a link set whose last link is (i, j);
    :meth:`backward` gives ``C[i][j]``, the best that can follow the link (i, j), so that
    ``F + C`` is the best score of a link set holding (i, j).
    """

    def __init__(self, s: list[list[float]], sharing: list[float]):
        self.s, self.sharing = s, sharing
        m, n = self.m, self.n = len(s), len(s[0])
        first = RENDERED + RENDERING
        within, across = RENDERED + GAP_IN, RENDERED + RENDERING + GAP_ACROSS
        shared = [RENDERING - cost for cost in sharing]
        gap_in = [GAP_IN * j for j in range(n)]
        gap_across = [GAP_ACROSS * j for j in range(n)]
        # F, and where each link came from; PmA[i][j]: the max of F + GAP_ACROSS * j' over rows
        # <= i and columns j' <= j, with its cell.
        F: list[list[float]] = []
        back: list[list[tuple[int, int] | None]] = []
        PmA: list[list[float]] = []
        PmA_cell: list[list[tuple[int, int] | None]] = []
        above = [NEG] * n
        above_pma, above_cell = [NEG] * n, [None] * n
        for i in range(m):
            si = s[i]
            row, links_back = [NEG] * n, [None] * n
            pma, pma_cell = [NEG] * n, [None] * n
            row_best, row_cell = NEG, None  # max of F[i][j'] + GAP_IN * j' over j' < j
            left, left_cell = NEG, None  # pma[j - 1]
            for j in range(n):
                best, cell = first, None
                value = row_best - gap_in[j] + within
                if value > best:
                    best, cell = value, row_cell
                if j:
                    value = above_pma[j - 1] - gap_across[j] + across
                    if value > best:
                        best, cell = value, above_cell[j - 1]
                value = above[j] + shared[j]
                if value > best:
                    best, cell = value, (i - 1, j)
                f = si[j] + best
                row[j], links_back[j] = f, cell
                value = f + gap_in[j]
                if value > row_best:
                    row_best, row_cell = value, (i, j)
                # Ties keep the earlier cell: above first, then left, then this one.
                top, top_cell = above_pma[j], above_cell[j]
                if left > top:
                    top, top_cell = left, left_cell
                value = f + gap_across[j]
                if value > top:
                    top, top_cell = value, (i, j)
                pma[j], pma_cell[j] = top, top_cell
                left, left_cell = top, top_cell
            F.append(row)
            back.append(links_back)
            PmA.append(pma)
            PmA_cell.append(pma_cell)
            above, above_pma, above_cell = row, pma, pma_cell
        self.F, self.back, self.PmA = F, back, PmA
        # The best link set ends anywhere: _upto[i] is the best that ends in rows <= i.
        best_total, self._last = 0.0, None
        self._upto = []
        for i in range(m):
            for j in range(n):
                if F[i][j] > best_total:
                    best_total, self._last = F[i][j], (i, j)
            self._upto.append(best_total)
        self.total = best_total
        self._C: list[list[float]] | None = None

    def links(self) -> list[tuple[int, int]]:
        """The best link set, in order (the first cell that reaches the best score, on ties)."""
        found = []
        cell = self._last
        while cell is not None:
            found.append(cell)
            cell = self.back[cell[0]][cell[1]]
        return found[::-1]

    def backward(self) -> list[list[float]]:
        """C[i][j]: the best score that can follow the link (i, j) (0 if nothing does)."""
        if self._C is not None:
            return self._C
        s, m, n = self.s, self.m, self.n
        within, across = RENDERED + GAP_IN, RENDERED + RENDERING + GAP_ACROSS
        shared = [RENDERING - cost for cost in self.sharing]
        C: list[list[float]] = [[0.0] * n for _ in range(m)]
        # SmA[j]: max of s + C - GAP_ACROSS * j' over rows below and columns j' >= j.
        below_sma = [NEG] * (n + 1)
        below_h = [NEG] * n
        self._SmA: list[list[float]] = [[NEG] * (n + 1) for _ in range(m + 1)]
        self._from = [NEG] * (m + 1)
        for i in range(m - 1, -1, -1):
            si, row = s[i], C[i]
            sma = [NEG] * (n + 1)
            h_row = [NEG] * n
            row_best = NEG  # max of s + C - GAP_IN * j' over j' > j in this row
            for j in range(n - 1, -1, -1):
                best = 0.0
                value = row_best + GAP_IN * j + within
                if value > best:
                    best = value
                value = below_sma[j + 1] + GAP_ACROSS * j + across
                if value > best:
                    best = value
                value = below_h[j] + shared[j]
                if value > best:
                    best = value
                row[j] = best
                h = si[j] + best
                h_row[j] = h
                if h - GAP_IN * j > row_best:
                    row_best = h - GAP_IN * j
                value = h - GAP_ACROSS * j
                top = below_sma[j]
                if sma[j + 1] > top:
                    top = sma[j + 1]
                sma[j] = value if value > top else top
            self._SmA[i] = sma
            below_sma, below_h = sma, h_row
            # the best link set that starts in rows >= i
            self._from[i] = max(self._from[i + 1], max(h_row))
        self._C = C
        return C

    def holding(self, i: int, j: int) -> float:
        """The best score of a link set that holds the link (i, j)."""
        return self.F[i][j] + self.backward()[i][j]


def _confidence(margin: float) -> float:
    return round(1 - math.exp(-max(0.0, margin) / MARGIN_SCALE), 3)


def _link_confidences(
    tables: _Tables, links: list[tuple[int, int]]
) -> dict[tuple[int, int], float]:
    """For each link (i, j): ``1 - exp(-margin / MARGIN_SCALE)``, the margin being how much lower
    the best alignment scores that gives passage j to another paragraph, or that drops the link
    (which costs at least what the link adds)."""
    C = tables.backward()
    holders: dict[int, set[int]] = {}
    for i, j in links:
        holders.setdefault(j, set()).add(i)
    # For each passage linked: the best alignment that gives it to a paragraph that does not hold it.
    other: dict[int, float] = {}
    for j, rows in holders.items():
        other[j] = max(
            (tables.F[i][j] + C[i][j] for i in range(tables.m) if i not in rows), default=NEG
        )
    result = {}
    for i, j in links:
        margin = min(tables.total - other[j], tables.s[i][j])
        result[(i, j)] = _confidence(margin)
    return result


def _unpaired_confidence(tables: _Tables, i: int) -> float:
    """For a paragraph paired with nothing: how much lower the best alignment that pairs it scores."""
    C = tables.backward()
    return _confidence(tables.total - max(f + c for f, c in zip(tables.F[i], C[i])))
