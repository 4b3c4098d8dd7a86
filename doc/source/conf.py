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

"""Sphinx configuration of the documentation (tox -e docs, tools/docs.sh).

Built with warnings as errors. The resource reference and the CLI
reference are committed files (tools/gen_references.py writes them; a unit
test fails when they are stale); the option samples and the known engine
issues are generated at build time (oslo.config's Sphinx extensions and
doc/source/_exts).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '_exts'))

extensions = [
    'openstackdocstheme',
    'oslo_config.sphinxext',
    'oslo_config.sphinxconfiggen',
    'reno.sphinxext',
    # Ours (doc/source/_exts).
    'cli_reference',
    'engine_issues',
]

# oslo_config.sphinxconfiggen writes both samples into _static (ignored by
# git) before the pages are read; the install guide includes them.
config_generator_config_file = [
    ('../../etc/oslo-config-generator/heat-lifecycle-plugins.conf',
     '_static/heat-lifecycle-plugins'),
    ('../../etc/oslo-config-generator/heat-lifecycle-agent.conf',
     '_static/heat-lifecycle-agent'),
]

project = 'heat-lifecycle-plugins'
copyright = 'heat-lifecycle-plugins developers'
master_doc = 'index'
exclude_patterns = ['_build']
pygments_style = 'native'

html_theme = 'openstackdocs'
# Not a page of docs.openstack.org: no analytics tag, no OpenStack badge.
html_theme_options = {'analytics_tracking_code': '', 'display_badge': False}
# _static holds only generated files, so a fresh clone has no such folder.
os.makedirs(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         '_static'), exist_ok=True)
html_static_path = ['_static']
openstackdocs_repo_name = 'heat-lifecycle-plugins/heat-lifecycle-plugins'
openstackdocs_auto_name = False
openstackdocs_bug_project = 'heat-lifecycle-plugins'
openstackdocs_bug_tag = 'doc'
