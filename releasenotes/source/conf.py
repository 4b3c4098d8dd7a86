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

"""Sphinx configuration of the release notes (tox -e releasenotes).

reno reads the notes in releasenotes/notes from git: a note shows once it
is committed.
"""

extensions = [
    'openstackdocstheme',
    'reno.sphinxext',
]

project = 'heat-lifecycle-plugins Release Notes'
copyright = 'heat-lifecycle-plugins developers'
master_doc = 'index'
exclude_patterns = ['_build']
pygments_style = 'native'

html_theme = 'openstackdocs'
# Not a page of docs.openstack.org: no analytics tag, no OpenStack badge.
html_theme_options = {'analytics_tracking_code': '', 'display_badge': False}
openstackdocs_repo_name = 'heat-lifecycle-plugins/heat-lifecycle-plugins'
openstackdocs_auto_name = False
openstackdocs_bug_project = 'heat-lifecycle-plugins'
openstackdocs_bug_tag = 'releasenotes'
# Release notes are not versioned by the package version (the build does
# not need the package installed).
openstackdocs_auto_version = False
version = ''
release = ''
