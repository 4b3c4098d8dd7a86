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
"""The Heat releases the package supports, and their known engine issues.

Data only (no Heat import; the installed version is read from the package
metadata): `heat-lifecycle-plugins check` reads it for the installed Heat,
heat_internals reads the engine model from it, heat_contract the version.
The series list matches tools/series.sh and the pinned versions
constraints/<series>.txt (tests/unit/test_releases.py checks both).
"""

import collections
import importlib.metadata

# heat-engine's concurrency model: eventlet up to 24.x, oslo.service's
# threading backend from 25.0.
EVENTLET, THREADS = 'eventlet', 'native threads'
THREADS_SINCE = (25, 0, 0)
# heat-api-cfn needs [ec2authtoken] credentials (no unauthenticated
# fallback) from 27.0.
EC2AUTH_REQUIRED_SINCE = (27, 0, 0)

# tested: the openstack-heat version CI runs the series with.
Series = collections.namedtuple(
    'Series', 'name codename heat_major tested slurp')

SERIES = (
    Series('2025.1', 'Epoxy', 24, '24.1.2', True),
    Series('2025.2', 'Flamingo', 25, '25.0.2', False),
    Series('2026.1', 'Gazpacho', 26, '26.0.2', True),
    Series('2026.2', 'Hibiscus', 27, '27.0.1', False),
)

# A known issue of heat-engine/heat-api: `affects` is a tuple of version
# ranges [first, fixed_in), fixed_in None while no release fixes it;
# `configure` says what an operator sets (or does) about it.
KnownIssue = collections.namedtuple(
    'KnownIssue', 'key affects summary configure')

KNOWN_ISSUES = (
    KnownIssue(
        'eventlet-engine', (((24, 0, 0), THREADS_SINCE),),
        'heat-engine runs on eventlet (deprecated upstream; the last '
        'release to do so); each stack\'s work shares a green pool of 10, '
        'so signals to a busy stack wait for a free slot',
        'nothing to set; plan the upgrade to 2026.1 (SLURP), whose engine '
        'runs on native threads'),
    KnownIssue(
        'per-stack-thread-budget', ((THREADS_SINCE, None),),
        'heat-engine\'s per-stack thread group never frees finished threads '
        'and refuses the 1001st: every asynchronous resource signal and '
        'every event a worker dispatches spends one, so after about 1000 '
        'per stack per engine worker, signals, updates and deletes of that '
        'stack answer HTTP 500 until heat-engine restarts',
        'nothing for our types (their signals run in the RPC call and '
        'spend none); for the rest set [heat_lifecycle_plugins] '
        'forget_finished_threads = true (opt-in: heat-engine then drops '
        'finished threads, for every stack), or raise num_engine_workers '
        'and restart heat-engine before a stack reaches the limit'),
    # heat/api/aws/ec2token.py: 24.1.1, 25.0.1 and 26.0.x (stable/2025.1
    # to stable/2026.1) fall back to an unauthenticated ec2tokens call
    # (_create_noauth_ks_adapter) when [ec2authtoken] has no credentials;
    # master (27.x) has no fallback (keystoneauth's MissingAuthPlugin).
    KnownIssue(
        'ec2authtoken-auth', ((EC2AUTH_REQUIRED_SINCE, None),),
        'heat-api-cfn authenticates to Keystone itself to check EC2 '
        'signatures: without [ec2authtoken] credentials every CFN_SIGNAL '
        'signal (the default deployment transport) fails with HTTP 500 '
        'MissingAuthPlugin',
        'set [ec2authtoken] auth_type = password, auth_url, username, '
        'password, project_name, user_domain_name, project_domain_name '
        'and endpoint_override = the unversioned Keystone URL'),
    KnownIssue(
        'ec2authtoken-fallback', (((24, 1, 1), (25, 0, 0)),
                                  ((25, 0, 1), EC2AUTH_REQUIRED_SINCE)),
        'since the OSSA-2025-002 fix heat-api-cfn checks EC2 signatures '
        'with [ec2authtoken] credentials; without them it falls back to an '
        'unauthenticated ec2tokens call (logged at its start), which a '
        'Keystone that requires authentication for it refuses: CFN_SIGNAL '
        'signals then fail with HTTP 403 AccessDenied; Heat 27 (2026.2) '
        'drops the fallback',
        'set [ec2authtoken] auth_type = password, auth_url, username, '
        'password, project_name, user_domain_name, project_domain_name '
        'and endpoint_override = the unversioned Keystone URL (required '
        'from 2026.2 on)'),
    KnownIssue(
        'ossa-2025-002-unfixed', (((24, 0, 0), (24, 1, 1)),
                                  ((25, 0, 0), (25, 0, 1))),
        'this release predates the OSSA-2025-002 fix: heat-api-cfn asks '
        'Keystone to check EC2 signatures without credentials, which a '
        'Keystone carrying its own fix refuses (CFN_SIGNAL signals fail)',
        'upgrade to openstack-heat 24.1.1 or 25.0.1 or later, then set '
        '[ec2authtoken] Keystone credentials'),
    KnownIssue(
        'legacy-stack-check', (((24, 0, 0), (26, 0, 0)),),
        '`stack check` of a convergence stack runs the legacy in-memory '
        'check in one engine worker under the stack lock; from 26.0 it runs '
        'through convergence like the other actions',
        'nothing to set; a check of a large stack keeps that stack locked '
        'until it ends'),
)


def parse_version(text):
    """'27.0.1' -> (27, 0, 1); parts that are not numbers end it."""
    parts = []
    for part in text.split('.'):
        if not part.isdigit():
            break
        parts.append(int(part))
    return tuple(parts + [0] * (3 - len(parts)))[:3]


def installed_heat_version():
    """The installed openstack-heat version as a tuple of 3 ints."""
    return parse_version(importlib.metadata.version('openstack-heat'))


def series_of(version):
    """The supported Series of a Heat version tuple, or None."""
    for series in SERIES:
        if series.heat_major == version[0]:
            return series
    return None


def engine_of(version):
    """EVENTLET or THREADS: the concurrency model of that heat-engine."""
    return EVENTLET if version < THREADS_SINCE else THREADS


def issues_of(version):
    """The known issues that affect a Heat version tuple."""
    return [issue for issue in KNOWN_ISSUES
            if any(first <= version and (fixed is None or version < fixed)
                   for first, fixed in issue.affects)]
