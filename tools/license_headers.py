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
"""Every source file carries the Apache-2.0 header.

    python3 tools/license_headers.py          # list the files without it
    python3 tools/license_headers.py --add    # put it in them

Source files: the tracked Python and shell files, and the scripts without
a suffix that start with a shebang. The header goes after the shebang and
any coding line. Empty modules (a bare __init__.py) stay empty, as in
OpenStack (hacking's H104 rejects a file of comments only).
Standard library only (the lint tier runs it).
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(__file__, encoding='utf-8') as _f:
    HEADER = _f.read().split('"""', 1)[0]  # this file's own header

MARKER = 'Licensed under the Apache License, Version 2.0'


def source_files():
    out = subprocess.run(['git', 'ls-files', '-z'], cwd=ROOT, check=True,
                         capture_output=True).stdout.decode()
    for path in filter(None, out.split('\0')):
        full = os.path.join(ROOT, path)
        if not os.path.isfile(full):
            continue
        if path.endswith(('.py', '.sh')) or (
                '.' not in os.path.basename(path) and _has_shebang(full)):
            yield path


def _has_shebang(path):
    with open(path, 'rb') as f:
        return f.read(2) == b'#!'


def missing():
    bad = []
    for path in source_files():
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            head = f.read(2000)
        if MARKER not in head and head.strip():
            bad.append(path)
    return bad


def add(path):
    full = os.path.join(ROOT, path)
    with open(full, encoding='utf-8') as f:
        lines = f.read().splitlines(True)
    keep = 0
    while keep < len(lines) and keep < 2 and (
            lines[keep].startswith('#!') or 'coding' in lines[keep]):
        keep += 1
    body = lines[keep:]
    with open(full, 'w', encoding='utf-8') as f:
        f.writelines(lines[:keep] + [HEADER] + body)


def main(argv):
    bad = missing()
    if '--add' in argv:
        for path in bad:
            add(path)
        print('header added to %d file(s)' % len(bad))
        return 0
    for path in bad:
        print('%s:1:1: no Apache-2.0 licence header' % path)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
