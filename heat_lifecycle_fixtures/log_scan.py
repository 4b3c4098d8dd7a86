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
X-Subject-Token header that is not hashed, a signed URL's Signature, a
Swift temp URL's temp_url_sig.
A finding names the file, the line and the kind, never the secret.

A Scan also counts the files it read and looks for a planted canary: a
made-up secret that the session's processes write to their own logs
(HLP_LOG_CANARY, written by announce_canary()). A scan that read nothing,
or missed the canary, fails: it could not have found a real secret.
heat-engine is Heat's own, unmodified: plant_in_engine_log() has it log
the canary as it logs any request, so that the scan is shown to read
heat-engine.log too.
"""

import os
import re
import sys
import time
import uuid

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
    ('temp URL', re.compile(r'temp_url_sig=([A-Za-z0-9%:+/=_-]{16,})')),
)
# (log file name, kind) that are not findings, and why. Mistral logs the
# URL of each webhook it posts to (INFO) and the params of each execution,
# so an ExternalResource's signed heat-api-cfn URL is in mistral.log by
# Mistral's design; the URL only lets its holder tell the resource that an
# execution ended, which the resource then reads from Mistral itself.
# Swift's account, container and object servers log each request with
# the proxy's request, a temp URL's signature included, as its referer.
NOT_FINDINGS = {('mistral.log', 'signed URL')} | {
    ('swift-%s-server.log' % name, 'temp URL')
    for name in ('account', 'container', 'object')}
MAX_FINDINGS = 20
CANARY_ENV = 'HLP_LOG_CANARY'


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
    scan = Scan(secrets)
    for root in roots:
        scan.read(root)
    return scan.findings


def new_canary():
    """A made-up secret to plant in the logs, never a real one."""
    return 'hlp-canary-%s' % uuid.uuid4().hex


def announce_canary(stream=None):
    """Write the planted canary, if any, to this process's log."""
    canary = os.environ.get(CANARY_ENV)
    if canary:
        stream = stream or sys.stderr
        stream.write('log scan canary: %s\n' % canary)
        stream.flush()


ENGINE_LOG = 'heat-engine.log'


def plant_in_engine_log(heat, canary, timeout=60):
    """Have heat-engine write `canary` to its log, through heat-api.

    heat-engine logs the name of each stack it creates ("Creating stack
    NAME", INFO): an empty stack named `canary` is created, then deleted.
    heat: a heatclient of the cloud.
    """
    stack = heat.stacks.create(stack_name=canary, template={
        'heat_template_version': '2016-10-14'})['stack']
    deadline = time.monotonic() + timeout
    while heat.stacks.get(stack['id']).stack_status.endswith('IN_PROGRESS'):
        if time.monotonic() > deadline:
            raise AssertionError('the canary stack did not end in %d s'
                                 % timeout)
        time.sleep(0.5)
    heat.stacks.delete(stack['id'])


class Scan(object):
    """The logs below some directories, each file read once.

    secrets: the passwords the cloud was given (a set that may grow);
    canary: the planted secret, reported apart from the real findings.
    """

    def __init__(self, secrets=(), canary=None):
        self.secrets = secrets
        self.canary = canary
        self.read_files = []
        self.findings = []  # 'path:line: kind', at most MAX_FINDINGS
        self.canary_at = []  # 'path:line' of each line with the canary

    def read(self, root):
        """Scan the *.log files below `root` not read yet."""
        known = [s for s in set(self.secrets) if s and s != self.canary]
        for path in log_files(root):
            if path in self.read_files:
                continue
            self.read_files.append(path)
            with open(path, encoding='utf-8', errors='replace') as f:
                for number, line in enumerate(f, 1):
                    self._line(path, number, line, known)

    def _line(self, path, number, line, known):
        if self.canary and self.canary in line:
            self.canary_at.append('%s:%d' % (path, number))
            line = line.replace(self.canary, '')  # not a real finding
        kinds = ['a known password' for s in known if s in line]
        kinds += [kind for kind, pattern in PATTERNS if pattern.search(line)
                  and (os.path.basename(path), kind) not in NOT_FINDINGS]
        for kind in sorted(set(kinds)):
            if len(self.findings) < MAX_FINDINGS:
                self.findings.append('%s:%d: %s' % (path, number, kind))

    def problems(self, canary_in=()):
        """What fails the scan: nothing read, no canary, each finding.

        canary_in: names of log files (os-collect-config.log) that must
        hold the canary in one of them when any of them was read.
        """
        found = []
        if not self.read_files:
            found.append('no log file was read')
        elif self.canary and not self.canary_at:
            found.append('the planted canary is in none of the %d logs '
                         'read' % len(self.read_files))
        for name in canary_in:
            named = [p for p in self.read_files
                     if os.path.basename(p) == name]
            held = [a for a in self.canary_at
                    if os.path.basename(a.rsplit(':', 1)[0]) == name]
            if named and self.canary and not held:
                found.append('the planted canary is in none of the %d %s '
                             'files read' % (len(named), name))
        return found + ['secret: %s' % f for f in self.findings]
