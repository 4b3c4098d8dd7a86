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
"""A result is stale when a file of what it measures changed after it."""

import subprocess

from benchmarks import closure
from benchmarks import merge
from benchmarks import parts
from benchmarks import stamp


def test_the_closure_follows_imports_into_package_and_fixtures():
    files = closure.files_of(parts.BY_NAME['external-short'].measures)
    # Files the old hand-written lists missed (issue 55).
    for path in ('heat_lifecycle_plugins/config.py',
                 'heat_lifecycle_plugins/resources/common.py',
                 'heat_lifecycle_plugins/protocol.py',
                 'heat_lifecycle_plugins/action_requests.py',
                 'heat_lifecycle_plugins/clients/executions.py',
                 'heat_lifecycle_fixtures/mistral.py',
                 'benchmarks/external_cases.py'):
        assert path in files, path
    # Nothing of a type or benchmark the part does not run.
    assert 'heat_lifecycle_plugins/resources/resource_chain.py' not in files
    assert 'benchmarks/signals.py' not in files


def test_other_files_are_kept_as_named():
    files = closure.files_of(parts.BY_NAME['chain-small'].measures)
    assert 'examples/benchmarks.yaml' in files
    assert 'heat_lifecycle_plugins/resources/chain_segments.py' in files


def head():
    return subprocess.run(['git', 'rev-parse', 'HEAD'], cwd=closure.ROOT,
                          capture_output=True, text=True).stdout.strip()


def first_commit_of(path):
    return subprocess.run(
        ['git', 'log', '--diff-filter=A', '--format=%H', '--', path],
        cwd=closure.ROOT, capture_output=True, text=True).stdout.split()[-1]


def test_a_result_older_than_a_closure_file_is_stale_a_new_one_not():
    files = closure.files_of(parts.BY_NAME['chain-small'].measures)
    assert stamp.stale({'commit': head()}, files) is None
    old = first_commit_of('benchmarks/chain.py')
    assert stamp.stale({'commit': old}, files)


def test_a_profile_is_judged_by_the_commit_it_names():
    text = '# Profile: sequential chain of 100\n\nCommit %s, Heat 27.0.1.\n'
    assert merge.profile_mark('profile-sequential-100.md',
                              text % head()[:10]) == ''
    old = first_commit_of('benchmarks/chain.py')[:10]
    assert 'STALE' in merge.profile_mark('profile-sequential-100.md',
                                         text % old)
    assert 'no commit named' in merge.profile_mark('profile-summary.md',
                                                   '# What they say\n')
