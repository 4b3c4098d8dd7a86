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
"""How long each fuzz test searches, and what it prints when it fails.

In CI a fuzz test is one derandomized hypothesis run of `examples`
examples: the same cases every run. With `--long SECONDS` it runs again
and again with new seeds until its share of SECONDS is spent. A failure
prints the falsifying example as a plain regression test to paste into
tests/unit (calling the same check with the same case).
"""

import itertools
import time

import hypothesis

PASTE = '''
---- a regression test to paste (beside the tier's other regressions) ----
def test_{name}_regression():
    {module}.{check}({arguments})
--------------------------------------------------------------------------
'''


class Budget(object):
    """The fuzz settings of a session: CI's fixed cases or a long search."""

    def __init__(self, long_seconds=None, tests=1, show=print):
        self.long_seconds = long_seconds
        self.show = show  # prints a found case's regression
        self.tests = max(tests, 1)
        self.cases = {}  # check name -> cases run
        self.seconds = {}  # check name -> time spent

    def run(self, strategy, check, examples):
        """Search with `strategy` for a case that `check(case=...)` fails.

        CI: `examples` derandomized cases. --long: runs of `examples`
        cases with seed 1, 2, ... until this test's share is spent.
        """
        name = check.__name__

        def one(case):
            self.cases[name] = self.cases.get(name, 0) + 1
            check(case=case)

        start = time.monotonic()
        seeds = [None]
        if self.long_seconds:
            until = start + self.long_seconds / self.tests
            seeds = itertools.takewhile(
                lambda _seed: time.monotonic() < until, itertools.count(1))
        try:
            for seed in seeds:
                settings = hypothesis.settings(
                    max_examples=examples, derandomize=seed is None,
                    deadline=None, database=None, print_blob=False,
                    suppress_health_check=list(hypothesis.HealthCheck))
                test = settings(hypothesis.given(case=strategy)(one))
                if seed is not None:
                    test = hypothesis.seed(seed)(test)
                try:
                    test()
                except Exception as exc:
                    self.show(paste(check, exc))
                    raise
        finally:
            self.seconds[name] = (self.seconds.get(name, 0) +
                                  time.monotonic() - start)


def _notes(exc):
    """Hypothesis's notes on `exc` and, for several bugs, on each one."""
    notes = list(getattr(exc, '__notes__', ()))
    for inner in getattr(exc, 'exceptions', ()):
        notes += _notes(inner)
    return notes


def paste(check, exc):
    """A regression test from hypothesis's 'Falsifying example' notes."""
    tests = []
    for note in _notes(exc):
        if note.startswith(('Falsifying example:', 'Failing test case:')):
            call = note.split(':', 1)[1].strip()
            arguments = call[call.index('(') + 1:call.rindex(')')]
            arguments = arguments.strip().rstrip(',').replace(
                '\n', '\n    ')
            module = check.__module__.rsplit('.', 1)[-1]
            tests.append(PASTE.format(name=check.__name__, module=module,
                                      check=check.__name__,
                                      arguments=arguments))
    return ''.join(tests) or '(no falsifying example was reported)'
