#!/usr/bin/env python3
"""Where a line's CPU went, from async-profiler's collapsed stacks (scripts/cost --profile).

Usage: scripts/lib/stack-shares.py FILE [--top N] [--grep TEXT]
Prints the share of all samples per thread kind (threads named alike are summed), then the frames
with the largest inclusive share (a frame counted once per stack it is on), optionally only those
whose name contains TEXT. Multiply a share by the line's JVM µs per request (scripts/cost's table) to
get µs per request.
"""
import argparse
import collections
import re

parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("--top", type=int, default=60)
parser.add_argument("--grep", default=None)
args = parser.parse_args()

total = 0
threads = collections.Counter()
inclusive = collections.Counter()
for line in open(args.file):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    count = int(count)
    total += count
    frames = stack.split(";")
    # async-profiler puts the thread name first with -t; without it, the outermost frame says the kind
    threads[re.sub(r"\d+", "N", frames[0])] += count
    for frame in set(frames):
        inclusive[frame] += count

print(f"{total} samples")
print("\nby outermost frame:")
for name, count in threads.most_common(12):
    print(f"{100 * count / total:6.1f}%  {name}")
print("\ninclusive, largest first:")
shown = 0
for frame, count in inclusive.most_common():
    if args.grep and args.grep not in frame:
        continue
    print(f"{100 * count / total:6.1f}%  {frame[:160]}")
    shown += 1
    if shown >= args.top:
        break
