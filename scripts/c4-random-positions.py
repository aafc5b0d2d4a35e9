#!/usr/bin/env python3
"""Connect Four positions after random plies, as move strings (columns 1-7,
Pons' notation), for the side-by-side benchmark of docs/PERFORMANCE.md.

    scripts/c4-random-positions.py [COUNT [PLIES [SEED]]]   # defaults 300 12 12

Each position is COUNT distinct games of PLIES uniformly random legal moves
in which nobody has four in a row yet. The labels come from a solver:
pipe the output through `c4solver -w` and keep its first two columns.
"""
import random
import sys

W, H = 7, 6


def four(board, p):
    for c in range(W):
        for r in range(H):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(
                    0 <= c + dc * k < W and 0 <= r + dr * k < H and board[c + dc * k][r + dr * k] == p
                    for k in range(4)
                ):
                    return True
    return False


def main():
    args = [int(a) for a in sys.argv[1:]]
    count, plies, seed = (args + [300, 12, 12][len(args):])[:3]
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < count:
        board = [[0] * H for _ in range(W)]
        height = [0] * W
        seq = ""
        for ply in range(plies):
            c = rng.choice([c for c in range(W) if height[c] < H])
            p = 1 + ply % 2
            board[c][height[c]] = p
            height[c] += 1
            seq += str(c + 1)
            if four(board, p):
                seq = None
                break
        if seq and seq not in seen:
            seen.add(seq)
            out.append(seq)
    print("\n".join(out))


if __name__ == "__main__":
    main()
