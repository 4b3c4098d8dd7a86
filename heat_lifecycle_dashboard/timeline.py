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
"""The deployments as a timeline: an SVG picture drawn by the server.

Each deployment is a bar from when its action began to when it ended (now
while it runs), its progress messages are marks on it, its outcome is
its colour. Plain markup: nothing is fetched by the browser.
"""

import datetime
import html

WIDTH, LABEL, ROW, BAR = 760, 220, 26, 14
COLOURS = {'COMPLETE': '#3c763d', 'FAILED': '#a94442',
           'IN_PROGRESS': '#31708f'}
OTHER = '#777777'


def colour(status):
    status = str(status or '')
    for outcome, shade in COLOURS.items():
        if status == outcome or status.endswith('_' + outcome):
            return shade
    return OTHER


def _time(text):
    if isinstance(text, datetime.datetime) or not text:
        return text
    try:
        found = datetime.datetime.strptime(str(text).rstrip('Z')[:19],
                                           '%Y-%m-%dT%H:%M:%S')
    except ValueError:
        return None
    return found.replace(tzinfo=datetime.timezone.utc)


def _span(row, now):
    began = _time(row.get('began'))
    ended = now if not row.get('final') else (
        _time(row.get('updated')) or now)
    return began, max(ended, began) if began else None


def svg(rows, now):
    """The picture's markup, or '' when no deployment has begun."""
    spans = [(row, ) + _span(row, now) for row in rows]
    spans = [s for s in spans if s[1] is not None]
    if not spans:
        return ''
    start = min(s[1] for s in spans)
    total = max((max(s[2] for s in spans) - start).total_seconds(), 1.0)
    scale = (WIDTH - LABEL - 10) / total

    def x(when):
        return LABEL + (when - start).total_seconds() * scale

    height = ROW * len(spans) + 20
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="lifecycle-'
             'timeline" width="%d" height="%d" role="img" aria-label='
             '"deployments over time">' % (WIDTH, height)]
    for number, (row, began, ended) in enumerate(spans):
        top = number * ROW + 4
        name = html.escape(str(row.get('path')))
        parts.append('<text x="0" y="%d" font-size="12">%s</text>'
                     % (top + BAR - 2, name))
        parts.append(
            '<rect class="lifecycle-bar" x="%.1f" y="%d" width="%.1f" '
            'height="%d" fill="%s"><title>%s %s %s</title></rect>' % (
                x(began), top, max(x(ended) - x(began), 2.0), BAR,
                colour(row.get('status')), name,
                html.escape(str(row.get('status'))),
                html.escape(str(row.get('elapsed') or ''))))
        for mark in row.get('marks') or ():
            when = _time(mark.get('time'))
            if when is None:
                continue
            parts.append(
                '<circle class="lifecycle-mark" cx="%.1f" cy="%d" r="4" '
                'fill="#ffffff" stroke="#333333"><title>%s: %s</title>'
                '</circle>' % (x(min(max(when, began), ended)),
                               top + BAR // 2, html.escape(mark['time']),
                               html.escape(mark['message'])))
    began_text = start.strftime('%Y-%m-%d %H:%M:%S UTC')
    parts.append('<text x="%d" y="%d" font-size="11">%s</text>' % (
        LABEL, height - 4, html.escape(began_text)))
    parts.append('<text x="%d" y="%d" font-size="11" text-anchor="end">'
                 '+%d s</text>' % (WIDTH - 10, height - 4, int(total)))
    parts.append('</svg>')
    return ''.join(parts)
