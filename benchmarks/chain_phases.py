# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.
"""Where a chain's create goes, phase by phase: ours against in-tree.

    python -m benchmarks.chain_phases --n 100 --out FILE.md
        [--mode sequential] [--rounds 9] [--slow-poll 0.5]

A chain of N members is one nested stack in both kinds (up to the size
where ours segments it). Its create is four phases, told apart by the
times of Heat's own INFO lines in the engine's process (the engine of the
chain parts, benchmarks/harness.py, the same warm-up round):
- start: from the create call to "Creating stack <nested>";
- nested run: until "Stack CREATE COMPLETE (<nested>)", Heat's work on
  the members, the same template in both kinds;
- notice: until "Stack CREATE COMPLETE (<top>)": the chain's check sees
  the nested stack done (in-tree checks once a second, ours polls,
  resources/nested_completion.py), then Heat completes the top stack;
- watch: until the benchmark's stack watch read it (20 ms).
--slow-poll S adds a kind, ours polling every S seconds from the start
(nested_completion's first and last interval; in-tree checks every
second), to tell whether ours' polls slow the nested run (they share the
engine's process with it). Heat's logger is set to INFO for the
creates, which costs every kind alike.
"""

import argparse
import logging
import re
import sys
import time

from benchmarks import chain
from benchmarks import engine_profile
from benchmarks import harness
from benchmarks import report

PHASES = ('start', 'nested run', 'notice', 'watch')
SLOW = 'ours, slow poll'


class HeatLines(logging.Handler):
    """Heat's log records in this process: [(time, message)]."""

    def __init__(self):
        super(HeatLines, self).__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append((record.created, record.getMessage()))

    def __enter__(self):
        log = logging.getLogger('heat')
        self.logger_level = log.level
        log.addHandler(self)
        log.setLevel(logging.INFO)
        return self

    def __exit__(self, *exc):
        log = logging.getLogger('heat')
        log.removeHandler(self)
        log.setLevel(self.logger_level)


def phases(lines, began, seconds, top):
    """{phase: seconds} of stack `top`'s create, from Heat's lines.

    began: the time of the create call; seconds: until the watch saw the
    create complete. None if a line is missing.
    """
    nested = r'%s-chain-[a-z0-9]+' % re.escape(top)

    def first(pattern):
        for at, message in lines:
            if re.search(pattern, message):
                return at - began
        return None

    marks = [0.0, first(r'^Creating stack %s$' % nested),
             first(r'^Stack CREATE COMPLETE \(%s\)' % nested),
             first(r'^Stack CREATE COMPLETE \(%s\)' % re.escape(top)),
             seconds]
    if None in marks:
        return None
    return {phase: marks[i + 1] - marks[i] for i, phase in enumerate(PHASES)}


def create_round(bench, kind, n, concurrent, tag, slow_poll):
    """One create, measured by phase, then its delete (not measured)."""
    from heat_lifecycle_plugins.resources import nested_completion as nc
    intervals = nc.FIRST_INTERVAL, nc.LAST_INTERVAL
    if kind == SLOW:
        nc.FIRST_INTERVAL = nc.LAST_INTERVAL = slow_poll
    name = 'phases-%s-%s' % (re.sub('[^a-z]', '', kind), tag)
    template, env = chain.stack_args(chain.OURS if kind == SLOW else kind,
                                     n, concurrent, 'v1')
    timeout = chain.timeout_for(n, concurrent, kind)
    try:
        with HeatLines() as heat:
            began = time.time()
            seconds, ident = bench.create(template, name, timeout,
                                          environment=env)
        found = phases(heat.lines, began, seconds, name)
    finally:
        nc.FIRST_INTERVAL, nc.LAST_INTERVAL = intervals
    bench.delete(ident, timeout)
    if found is None:
        raise harness.BenchmarkError('%s: a phase\'s line is missing' % name)
    return found


def markdown(args, kinds, rounds, origin):
    """The summary: medians by kind and phase, then every round."""
    mode = args.mode
    lines = [
        '# Profile: phases of a %s chain create of %d, %s' % (
            mode, args.n, ', '.join(kinds)),
        '', origin, '',
        'Seconds from the create call, split by the times of Heat\'s own '
        'INFO lines in the engine\'s process (benchmarks/chain_phases.py): '
        'start (to "Creating stack" of the nested stack), nested run (to '
        'its CREATE COMPLETE), notice (to the top stack\'s CREATE '
        'COMPLETE), watch (to the benchmark\'s read of it). Medians of %d '
        'rounds after one uncounted warm-up round%s.' % (
            args.rounds, '' if SLOW not in kinds else (
                '; "%s": ours polling every %s s' % (
                    SLOW, args.slow_poll))),
        '', '| kind | %s | total |' % ' | '.join(PHASES),
        '|---|%s---:|' % ('---:|' * len(PHASES))]
    for kind in kinds:
        found = rounds[kind]
        lines.append('| %s | %s | %s |' % (kind, ' | '.join(
            report.fmt(harness.median([f[p] for f in found]), 3)
            for p in PHASES), report.fmt(harness.median(
                [sum(f.values()) for f in found]), 3)))
    lines += ['', '## Every round', '',
              '| round | kind | %s |' % ' | '.join(PHASES),
              '|---|---|%s' % ('---:|' * len(PHASES))]
    for r in range(args.rounds):
        for kind in kinds:
            lines.append('| %d | %s | %s |' % (r, kind, ' | '.join(
                report.fmt(rounds[kind][r][p], 3) for p in PHASES)))
    return '\n'.join(lines) + '\n'


def parse_args(argv):
    p = argparse.ArgumentParser(prog='python -m benchmarks.chain_phases',
                                description=__doc__.splitlines()[0])
    p.add_argument('--mode', choices=('sequential', 'concurrent'),
                   default='sequential')
    p.add_argument('--n', type=int, required=True, help='chain members')
    p.add_argument('--rounds', type=int, default=9)
    p.add_argument('--slow-poll', type=float,
                   help='also run ours polling every this many seconds')
    p.add_argument('--out', required=True, help='the summary (markdown)')
    return p.parse_args(argv)


def run(argv=None):
    args = parse_args(argv)
    kinds = (chain.OURS, chain.INTREE) + ((SLOW,) if args.slow_poll else ())
    began = engine_profile.origin()
    rounds = engine_profile.rounds_of(
        kinds, args.rounds,
        lambda bench, kind, tag, scratch: create_round(
            bench, kind, args.n, args.mode == 'concurrent', tag,
            args.slow_poll),
        lambda found: ', '.join('%s %.3fs' % (p, found[p])
                                for p in PHASES))
    engine_profile.write_report(args.out, markdown(
        args, kinds, rounds, began))
    return 0


if __name__ == '__main__':
    sys.exit(harness.main(run))
