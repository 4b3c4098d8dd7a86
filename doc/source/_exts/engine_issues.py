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
"""The `engine-issues` directive: the supported Heat releases and their issues.

Generated from heat_lifecycle_plugins.releases, the data that
`heat-lifecycle-plugins check` reports for the installed Heat: a table of
the supported series, then each known engine issue with the releases it
affects and what an operator sets about it.
"""

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util import nodes as sphinx_nodes

from heat_lifecycle_plugins import releases


def _version(version):
    return '.'.join(map(str, version))


def affected_range(first, fixed):
    if fixed is None:
        return '%s and later' % _version(first)
    return '%s up to, not including, %s' % (_version(first), _version(fixed))


def _sentence(text):
    return text[:1].upper() + text[1:] + '.'


def series_table():
    rows = [('Series', 'Heat', 'CI runs', 'engine',
             'known issues of that version')]
    for series in releases.SERIES:
        tested = releases.parse_version(series.tested)
        rows.append((
            '%s %s%s' % (series.name, series.codename,
                         ' (SLURP)' if series.slurp else ''),
            '%d.x' % series.heat_major, series.tested,
            releases.engine_of(tested),
            ', '.join('`%s`_' % i.key for i in releases.issues_of(tested))
            or 'none'))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    rule = ' '.join('=' * w for w in widths)
    fmt = ' '.join('%%-%ds' % w for w in widths)
    return [rule, (fmt % rows[0]).rstrip(), rule] + [
        (fmt % row).rstrip() for row in rows[1:]] + [rule, '']


def issue_lines(issue):
    title = issue.key
    lines = [title, '~' * len(title), '', _sentence(issue.summary), '',
             ':Affects: openstack-heat %s' % '; '.join(
                 affected_range(first, fixed)
                 for first, fixed in issue.affects),
             ':What to do: %s' % _sentence(issue.configure), '']
    return lines


class EngineIssues(SphinxDirective):
    has_content = False

    def run(self):
        lines = series_table()
        for issue in releases.KNOWN_ISSUES:
            lines += issue_lines(issue)
        node = nodes.section()
        node.document = self.state.document
        sphinx_nodes.nested_parse_with_titles(
            self.state, StringList(lines, source='engine-issues'), node)
        return node.children


def setup(app):
    app.add_directive('engine-issues', EngineIssues)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
