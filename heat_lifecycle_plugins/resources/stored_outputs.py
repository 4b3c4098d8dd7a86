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
"""How an ExternalResource keeps its merged outputs in Heat's resource data.

A resource data value is a TEXT column: 65535 bytes on MariaDB and MySQL,
where a longer value fails the write (strict mode) or is cut (otherwise).
Outputs whose JSON fits are one value under KEY, the in-tree type's key;
larger ones are split into parts of PART_SIZE characters under
PART_KEY % n, their number under PARTS_KEY. The JSON is ASCII (non-ASCII
characters escaped), so characters are bytes.

Pure: plan() says what to write and delete, given what is stored; the
resource does the writes, the parts first and the key that names them last.
"""

from oslo_serialization import jsonutils

KEY = 'outputs'
PARTS_KEY = 'outputs_parts'
PART_KEY = 'outputs_part_%d'
PART_SIZE = 60000


def encode(outputs):
    """The outputs as the ASCII JSON text that is stored."""
    return jsonutils.dumps(outputs, ensure_ascii=True)


def plan(text, stored):
    """([(key, value) to write, in order], [keys to delete]).

    `stored`: the resource data as it is now.
    """
    parts = [text[i:i + PART_SIZE] for i in range(0, len(text), PART_SIZE)]
    old_parts = [PART_KEY % n for n in range(int(stored.get(PARTS_KEY) or 0))]
    if len(parts) <= 1:
        stale = [PARTS_KEY] if PARTS_KEY in stored else []
        return [(KEY, text)], stale + old_parts
    writes = [(PART_KEY % n, part) for n, part in enumerate(parts)]
    writes.append((PARTS_KEY, str(len(parts))))
    stale = [KEY] if KEY in stored else []
    return writes, stale + old_parts[len(parts):]


def decode(stored):
    """The outputs kept in resource data `stored`; {} if none."""
    count = stored.get(PARTS_KEY)
    if count:
        text = ''.join(stored.get(PART_KEY % n) or ''
                       for n in range(int(count)))
    else:
        text = stored.get(KEY)
    return jsonutils.loads(text) if text else {}
