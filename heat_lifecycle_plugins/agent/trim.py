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
"""Fitting a signal body into Heat's request size limit.

Heat refuses a JSON body over max_json_body_size (1048576 bytes). The start
of deploy_stdout and deploy_stderr goes first (the end of a log is what
explains a failure) and the trimmed text says how much it lost.
"""

import json

from heat_lifecycle_plugins import protocol

TRIMMED_KEYS = (protocol.DEPLOY_STDOUT, protocol.DEPLOY_STDERR)
NOTE = '[heat-lifecycle-agent: %d characters trimmed from the start]\n'


def encode(body):
    """The bytes sent for `body` (ASCII JSON, as heatclient sends too)."""
    return json.dumps(body, ensure_ascii=True, sort_keys=True).encode('ascii')


def _size(text):
    return len(json.dumps(text, ensure_ascii=True))


def fit(body, max_bytes):
    """`body` trimmed to at most `max_bytes`; (body, trimmed characters).

    Returns (None, 0) when even empty logs do not fit (outputs too big).
    """
    excess = len(encode(body)) - max_bytes
    if excess <= 0:
        return body, 0
    body = dict(body)
    texts = {k: body.get(k) or '' for k in TRIMMED_KEYS}
    total = sum(_size(t) for t in texts.values())
    cut_chars = dict.fromkeys(TRIMMED_KEYS, 0)
    # Each round cuts each text in proportion to its encoded size; escaped
    # characters make sizes non-linear, so repeat until the body fits.
    while excess > 0 and any(texts.values()):
        for key, text in texts.items():
            if not text:
                continue
            share = _size(text) / float(total or 1)
            cut = _chars_to_cut(text, int(excess * share) + 64)
            texts[key] = text[cut:]
            cut_chars[key] += cut
        total = sum(_size(t) for t in texts.values())
        excess = len(encode(_noted(body, texts, cut_chars))) - max_bytes
    body = _noted(body, texts, cut_chars)
    trimmed = sum(cut_chars.values())
    if len(encode(body)) > max_bytes:
        return None, trimmed
    return body, trimmed


def _chars_to_cut(text, nbytes):
    """Fewest leading characters of `text` whose removal saves `nbytes`."""
    goal = _size(text) - nbytes
    low, high = 1, len(text)
    while low < high:
        middle = (low + high) // 2
        if _size(text[middle:]) <= goal:
            high = middle
        else:
            low = middle + 1
    return low


def _noted(body, texts, cut_chars):
    body = dict(body)
    for key, text in texts.items():
        body[key] = (NOTE % cut_chars[key] if cut_chars[key] else '') + text
    return body
