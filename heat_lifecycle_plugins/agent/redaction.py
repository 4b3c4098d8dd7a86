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
"""Keeping a deployment's credentials out of logs, signals and state.

The one place that decides what is secret (deploy_password, the pre-signed
deploy_signal_id and every input named like a password, secret or token)
and how it is hidden: in text the values are replaced by ***, a signal URL
by itself without its query (the signature); in the deployment kept on
disk the values of those inputs are ***.
"""

from urllib import parse

from heat_lifecycle_plugins import protocol

SECRET_WORDS = ('password', 'secret', 'token')
REDACTED = '***'
# Shorter values are not scrubbed from text: they would hide common words.
MIN_SCRUBBED = 4


def is_secret(name):
    name = str(name).lower()
    return name in protocol.SECRET_INPUTS or any(w in name
                                                 for w in SECRET_WORDS)


def _parts(url):
    """urlsplit(url); None for a value that is no URL (a bracket unclosed)."""
    if not isinstance(url, str):
        return None
    try:
        return parse.urlsplit(url)
    except ValueError:
        return None


def safe_url(url):
    """`url` without its query (a signature or token); *** if no URL."""
    parts = _parts(url)
    if parts is None:
        return REDACTED
    return parse.urlunsplit((parts.scheme, parts.netloc, parts.path, '', ''))


class Redactor(object):
    """Hides the secrets among one deployment's input values."""

    def __init__(self, values):
        """`values`: name -> value of the deployment's inputs."""
        hidden = {str(value): REDACTED for name, value in values.items()
                  if value and is_secret(name)}
        url = values.get(protocol.DEPLOY_SIGNAL_ID)
        if isinstance(url, str) and url:
            hidden[url] = safe_url(url)
            parts = _parts(url)
            if parts is not None:
                hidden[parts.query] = REDACTED
        # Longest first: a secret that contains another is hidden whole.
        self._hidden = sorted(
            ((secret, shown) for secret, shown in hidden.items()
             if len(secret) >= MIN_SCRUBBED),
            key=lambda pair: len(pair[0]), reverse=True)

    def text(self, text):
        for secret, shown in self._hidden:
            text = text.replace(secret, shown)
        return text

    def inputs(self, inputs):
        """A copy of an inputs list with the secret values replaced."""
        return [dict(item, **{protocol.IO_VALUE: REDACTED})
                if is_secret(item.get(protocol.IO_NAME, '')) else item
                for item in inputs if isinstance(item, dict)]
