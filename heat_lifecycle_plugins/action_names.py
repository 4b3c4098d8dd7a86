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
"""Which names may be actions: the lifecycle ones and custom (day-two) ones.

A custom action (BACKUP, ROTATE_CERTS, DRAIN) is an upper-case identifier,
[A-Z][A-Z0-9_]*, at most MAX_LENGTH characters, that is not a near miss of
a lifecycle action: within NEAR_MISS edits (insertions, deletions,
substitutions or swaps of two neighbours) of one. So CRAETE, UPDTE and
DELETED are refused as typos of CREATE, UPDATE and DELETE, and so is
`create` (lower case); CREATE_USER or BACKUP are custom actions. Upper
case keeps custom names apart from lower-case template keys and shows
them as actions in event lists, as Heat shows its own.

Shared by the component's configs[].actions, the deployment's
extended_action, ExternalResource's actions keys and the run-action
command. No Heat import: the command runs without the engine.
"""

import re

from heat_lifecycle_plugins import protocol

NAME_PATTERN = '[A-Z][A-Z0-9_]*'
MAX_LENGTH = 64
# Edits within which a name is taken for a typo of a lifecycle action.
NEAR_MISS = 2
_NAME = re.compile(NAME_PATTERN)


def _edits(a, b):
    """The optimal-string-alignment distance of a and b (swaps count 1)."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1,
                         rows[i - 1][j - 1] + cost)
            if (i > 1 and j > 1 and a[i - 1] == b[j - 2] and
                    a[i - 2] == b[j - 1]):
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def lifecycle_near_miss(name):
    """The lifecycle action `name` is a typo or other case of, or None."""
    text = str(name).upper()
    if str(name) in protocol.LIFECYCLE_ACTIONS:
        return None
    # Names longer or shorter by more than NEAR_MISS are further away: not
    # measured (a long name would take seconds).
    scored = sorted((_edits(text, action), action)
                    for action in protocol.LIFECYCLE_ACTIONS
                    if abs(len(text) - len(action)) <= NEAR_MISS)
    if not scored or scored[0][0] > NEAR_MISS:
        return None
    return scored[0][1]


def problem(name):
    """Why `name` cannot be an action, or None (lifecycle or custom)."""
    if name in protocol.LIFECYCLE_ACTIONS:
        return None
    hint = lifecycle_near_miss(name) if isinstance(name, str) else None
    if hint:
        return '%s is not an action; did you mean %r?' % (
            protocol.shown(name), hint)
    # fullmatch: `$` would let a trailing newline in.
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        text = ('%s is not an action: a custom action is an upper-case '
                'identifier (%s)' % (protocol.shown(name), NAME_PATTERN))
        if isinstance(name, str) and _NAME.fullmatch(name.upper()):
            text += '; did you mean %s?' % protocol.shown(name.upper())
        return text
    if len(name) > MAX_LENGTH:
        return '%r is not an action: longer than %d characters' % (
            name[:MAX_LENGTH] + '...', MAX_LENGTH)
    return None


def is_custom(name):
    """Whether `name` is a valid custom (not lifecycle) action."""
    return name not in protocol.LIFECYCLE_ACTIONS and problem(name) is None
