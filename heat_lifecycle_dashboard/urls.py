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
from django.urls import re_path
from django.views import generic

from heat_lifecycle_dashboard import views

urlpatterns = [
    # The panel has no page of its own: its index is the stacks list.
    re_path(r'^$', generic.RedirectView.as_view(
        pattern_name='horizon:project:stacks:index'), name='index'),
    re_path(r'^(?P<stack_id>[^/]+)/rows$', views.RowsView.as_view(),
            name='rows'),
    re_path(r'^(?P<stack_id>[^/]+)/run$', views.RunActionView.as_view(),
            name='run'),
]
