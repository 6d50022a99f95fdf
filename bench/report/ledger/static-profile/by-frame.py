#!/usr/bin/env python3
"""Event-loop samples of a JFR recording: share per top frame, and per class anywhere on the stack.
Usage: python3 by-frame.py < samples.txt"""
import collections, re, sys

events = sys.stdin.read().split('jdk.ExecutionSample {')[1:]
top, anywhere, callers, n = collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter), 0
for e in events:
    thread = re.search(r'sampledThread = "([^"]+)"', e)
    frames = re.findall(r'^\s+([\w$.<>]+)\(', e, re.M)
    if not thread or 'eventloop' not in thread.group(1) or not frames:
        continue
    n += 1
    top[frames[0]] += 1
    callers[frames[0]][' <- '.join('.'.join(f.split('.')[-2:]) for f in frames[1:6])] += 1
    for c in {f.rsplit('.', 1)[0] for f in frames}:
        anywhere[c] += 1
print(f'event-loop samples: {n}')
print('\ntop frames (share of samples; its most frequent callers)')
for f, c in top.most_common(25):
    print(f'{c / n * 100:5.1f}%  {f}')
    for s, k in callers[f].most_common(1):
        print(f'        {k} x {s}')
print('\nclasses anywhere on the stack (share of samples)')
for f, c in anywhere.most_common(45):
    print(f'{c / n * 100:5.1f}%  {f}')
