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
"""Secrets in the logs of a test run: passwords, tokens, deploy_password.

Every *.log file below a directory (the services', the agents', the
hooks') is read line by line for the passwords the cloud was given and
for credentials in the shapes the services and the agent would print
them: an unmasked deploy_password or password value, an X-Auth-Token or
X-Subject-Token header that is not hashed, a signed URL's Signature.
A finding names the file, the line and the kind, never the secret.
"""

import os
import re

# (kind, pattern): group 1 is the secret; a masked value ('***' as
# oslo.utils masks it, '{SHA256}...' as keystoneauth hashes tokens) is
# not one.
PATTERNS = (
    ('deploy_password', re.compile(
        r'deploy_password\\?["\']?\s*[:=]\s*\\?["\']?(?!\*{3})'
        r'([^"\'\\\s,}]{8,})')),
    # An input as Heat lists them: {"name": "deploy_password", ...,
    # "value": "..."}, in either order.
    ('deploy_password', re.compile(
        r'deploy_password\\?["\'][^{}]{0,200}?\\?["\']value\\?["\']\s*:\s*'
        r'\\?["\'](?!\*{3})([^"\'\\]{8,})')),
    ('deploy_password', re.compile(
        r'\\?["\']value\\?["\']\s*:\s*\\?["\'](?!\*{3})([^"\'\\]{8,})'
        r'\\?["\'][^{}]{0,200}?deploy_password')),
    ('password', re.compile(
        r'["\']password\\?["\']\s*:\s*\\?["\'](?!\*{3})([^"\'\\]{6,})')),
    ('token header', re.compile(
        r'X-(?:Auth|Subject)-Token\\?["\']?\s*[:=]\s*\\?["\']?'
        r'(?!\{SHA256\})([A-Za-z0-9_\-]{32,})')),
    ('signed URL', re.compile(r'Signature=([A-Za-z0-9%+/=]{16,})')),
)
MAX_FINDINGS = 20


def log_files(root):
    for folder, _dirs, files in os.walk(root):
        for name in sorted(files):
            if name.endswith('.log'):
                yield os.path.join(folder, name)


# oslo.log prefixes every line of a record: time, pid, level, logger.
RECORD_PREFIX = re.compile(r'^(\S+ \S+ \d+ [A-Z]+ \S+ )')


def _raised(lines):
    """The exception line that ends a traceback's lines, or ''.

    The first line after the last frame: an exception's message may run
    on over more lines.
    """
    found = ''
    for text in lines:
        if text.startswith('  File '):
            found = ''  # a frame: the exception line is still to come
        elif not found and text[:1].strip() and not text.startswith((
                'Traceback', 'During handling', 'The above exception')):
            found = text.strip()
    return found


def tracebacks(roots, expected=()):
    """'path:line: exception' of each traceback in the logs below roots.

    `expected`: prefixes of exception lines that are a service's normal
    report (Heat logs every failed resource action with its traceback,
    the exception being a heat.common.exception class).
    """
    found = []
    for root in roots:
        for path in log_files(root):
            with open(path, encoding='utf-8', errors='replace') as f:
                lines = f.read().splitlines()
            for number, line in enumerate(lines):
                if 'Traceback (most recent call last)' not in line:
                    continue
                match = RECORD_PREFIX.match(line)
                prefix = match.group(1) if match else ''
                block = [text[len(prefix):] for text in lines[number:]
                         if prefix and text.startswith(prefix)]
                raised = _raised(block) or line.strip()
                if not raised.startswith(tuple(expected)):
                    found.append('%s:%d: %s' % (path, number + 1,
                                                raised[:300]))
    return found


def findings(roots, secrets=()):
    """'path:line: kind' for each secret in the logs below `roots`."""
    known = [s for s in set(secrets) if s]
    found = []
    for root in roots:
        for path in log_files(root):
            with open(path, encoding='utf-8', errors='replace') as f:
                for number, line in enumerate(f, 1):
                    kinds = ['a known password' for s in known if s in line]
                    kinds += [kind for kind, pattern in PATTERNS
                              if pattern.search(line)]
                    found += ['%s:%d: %s' % (path, number, kind)
                              for kind in sorted(set(kinds))]
                    if len(found) >= MAX_FINDINGS:
                        return found
    return found
