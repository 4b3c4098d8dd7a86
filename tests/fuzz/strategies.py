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
"""Hypothesis strategies shared by the fuzz tests: JSON values and worse.

json_values(): any JSON value, null to maps, with the awkward ones:
control characters, lone surrogates, numbers too big for a double, strings
around the sizes our code cuts at (255, 4096, 1 MB), containers nested up
to MAX_DEPTH levels. files(): the bytes of a file meant to hold JSON
(not UTF-8, not JSON, empty, a BOM). A big string prints as the
expression that makes it, ('ab' * 524288), so that a failing case pastes
as a short regression test. Each strategy is built once (building one
costs more than drawing from it).
"""

import functools

from hypothesis import strategies as st

MAX_DEPTH = 50
# Sizes our code cuts text at, and around them.
EDGES = (200, 255, 256, 600, 601, 4096, 4097, 65536, 2 ** 20 + 1)


class Big(str):
    """A big string that prints as the expression that makes it."""

    def __new__(cls, unit, times=1):
        self = super(Big, cls).__new__(cls, unit * times)
        self.unit, self.times = unit, times
        return self

    def _repr_pretty_(self, printer, cycle):
        # How hypothesis prints an example; repr() stays str's, as the
        # code under test sees it.
        printer.text('(%r * %d)' % (self.unit, self.times))


CONTROL = st.characters(max_codepoint=0x1f) | st.sampled_from(
    '\x7f\x85\u200b\u2028\u2029\ufeff')
SURROGATES = st.characters(min_codepoint=0xd800, max_codepoint=0xdfff)
CHARACTERS = st.characters() | CONTROL | SURROGATES


@functools.lru_cache(maxsize=None)
def texts(max_size=40):
    """Short strings of any characters, control and lone surrogates too."""
    return st.text(CHARACTERS, max_size=max_size)


@functools.lru_cache(maxsize=None)
@st.composite
def big_texts(draw):
    """A string of about one of the EDGES characters, or more."""
    unit = draw(st.text(CHARACTERS, min_size=1, max_size=3) |
                st.sampled_from(('x', 'é', '\n', '"', '\\', '\udce9')))
    size = draw(st.sampled_from(EDGES) | st.integers(1, 70000))
    return Big(unit, max(size // len(unit), 1))


@functools.lru_cache(maxsize=None)
def strings():
    return texts() | big_texts()


@functools.lru_cache(maxsize=None)
def numbers():
    return (st.integers() | st.integers(-2 ** 70, 2 ** 70) |
            st.floats(allow_nan=False, allow_infinity=False) |
            st.sampled_from((0, 1, -1, 0.0, -0.0, 1e308, 2 ** 63, 10 ** 40)))


@functools.lru_cache(maxsize=None)
def scalars():
    return st.none() | st.booleans() | numbers() | strings()


def _nest(leaf, wrappers):
    for key in wrappers:
        leaf = [leaf] if key is None else {key: leaf}
    return leaf


@functools.lru_cache(maxsize=None)
def nested(leaves=None):
    """A value inside 1 to MAX_DEPTH levels of lists and maps."""
    wrapper = st.none() | st.sampled_from(('k', '', 'deploy_status'))
    return st.builds(_nest, leaves or scalars(),
                     st.lists(wrapper, min_size=1, max_size=MAX_DEPTH))


@functools.lru_cache(maxsize=None)
def json_values(keys=None, max_leaves=12):
    """Any JSON value: scalars, containers, deep and big ones."""
    keys = texts(12) if keys is None else keys
    shallow = st.recursive(
        scalars(), lambda inner: (st.lists(inner, max_size=5) |
                                  st.dictionaries(keys, inner, max_size=5)),
        max_leaves=max_leaves)
    return shallow | nested()


@functools.lru_cache(maxsize=None)
def maps(keys=None):
    """JSON maps, with `keys` among their keys when given."""
    return st.dictionaries(texts(12) if keys is None else keys | texts(12),
                           json_values(), max_size=6)


@functools.lru_cache(maxsize=None)
def utf8_breakers():
    """Bytes that are not UTF-8: stray, truncated or encoded surrogates."""
    return st.sampled_from((b'\xff', b'\xc3(', b'\xed\xa0\x80', b'\xe2\x82',
                            b'\xf8\x88\x80\x80\x80', b'\x80', b'\xc0\xaf'))


@functools.lru_cache(maxsize=None)
@st.composite
def files(draw):
    """The content of a file meant to hold JSON, broken in every way."""
    kind = draw(st.sampled_from(('bytes', 'bad utf-8', 'cut json', 'text',
                                 'blank', 'bom')))
    if kind == 'bytes':
        return draw(st.binary(max_size=64))
    if kind == 'blank':
        return draw(st.sampled_from((b'', b' ', b'\n', b'\t\r\n ')))
    if kind == 'text':
        return draw(texts()).encode('utf-8', 'surrogatepass')
    text = draw(st.sampled_from(('[{"id": "x"}]', '{"deployments": []}',
                                 '[]', 'null', '"text"', '{}')))
    if kind == 'bom':
        return b'\xef\xbb\xbf' + text.encode()
    if kind == 'cut json':
        return text.encode()[:draw(st.integers(0, len(text) - 1))]
    at = draw(st.integers(0, len(text)))
    return text.encode()[:at] + draw(utf8_breakers()) + text.encode()[at:]
