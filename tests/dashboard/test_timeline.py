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
"""The timeline picture (SVG markup, no browser)."""

import datetime
import xml.etree.ElementTree as ElementTree

from heat_lifecycle_dashboard import timeline

NOW = datetime.datetime(2026, 11, 28, 12, 10, tzinfo=datetime.timezone.utc)
SVG = '{http://www.w3.org/2000/svg}'


def at(minute):
    return NOW.replace(minute=minute)


def test_each_deployment_is_a_bar_coloured_by_outcome_with_its_marks():
    rows = [{'path': 'chain/1/deploy', 'status': 'FAILED', 'final': True,
             'began': at(0), 'updated': '2026-11-28T12:04:00Z',
             'marks': [{'time': '2026-11-28T12:02:00Z',
                        'message': 'step <1>'}]},
            {'path': 'web', 'status': 'IN_PROGRESS', 'final': False,
             'began': at(5), 'marks': []}]
    picture = ElementTree.fromstring(timeline.svg(rows, NOW))
    bars = picture.findall(SVG + 'rect')
    # Red for the failed one, blue for the one running.
    assert [b.get('fill') for b in bars] == ['#a94442', '#31708f']
    # 10 minutes across: the failed one ended at 4, the running one runs
    # from 5 to now.
    width = timeline.WIDTH - timeline.LABEL - 10
    assert float(bars[0].get('width')) == round(width * 0.4, 1)
    assert float(bars[1].get('x')) == timeline.LABEL + width * 0.5
    marks = picture.findall(SVG + 'circle')
    assert len(marks) == 1
    assert float(marks[0].get('cx')) == timeline.LABEL + width * 0.2
    assert 'step <1>' in marks[0].find(SVG + 'title').text


def test_nothing_begun_draws_nothing():
    assert timeline.svg([{'path': 'd', 'status': 'INIT_COMPLETE',
                          'began': None}], NOW) == ''
