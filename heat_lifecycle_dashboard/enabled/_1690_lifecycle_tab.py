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
# The Lifecycle tab on heat-dashboard's stack detail page: copy this file
# into openstack_dashboard/local/enabled/ (after heat-dashboard's
# _1610-_1650 files, which define the Orchestration panel group).
#
# EXTRA_TABS keys on the tab group's module and class name
# (horizon/tabs/base.py, TabGroup._load_tabs_from_config); heat-dashboard
# 15.0.0 and 13.0.0 name it heat_dashboard.content.stacks.tabs
# .StackDetailTabs. The panel has no menu entry (nav = False): it only
# mounts the tab's refresh and action URLs under /project/lifecycle/.

PANEL = 'lifecycle'
PANEL_DASHBOARD = 'project'
PANEL_GROUP = 'orchestration'
ADD_PANEL = 'heat_lifecycle_dashboard.panel.Lifecycle'
ADD_INSTALLED_APPS = ['heat_lifecycle_dashboard']
ADD_JS_FILES = ['heat_lifecycle_dashboard/js/lifecycle.js']

EXTRA_TABS = {
    'heat_dashboard.content.stacks.tabs.StackDetailTabs': (
        (100, 'heat_lifecycle_dashboard.tabs.LifecycleTab'),
    ),
}
