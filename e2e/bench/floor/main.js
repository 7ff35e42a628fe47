// The floor page of the page benchmark (issue 6): plain React, no UI library, no router, no
// translations. It makes the page's own calls in the page's order (the session, then 25 users of
// its organisation) and draws them as a plain table, so the benchmark can tell what the Users page
// costs over the least a React page can do with the same API.
import { createElement as h, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const getJson = async (url, accept = 'application/json') => {
  const response = await fetch(url, { headers: { accept }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
};

function Users() {
  const [users, setUsers] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    (async () => {
      const session = await getJson('/apis/oidc/userinfo');
      const list = await getJson(
        `/apis/accounts/api/v3/orgs/${session.org_id}/users?page%5Bsize%5D=25`,
        'application/vnd.api+json',
      );
      setUsers(list.data);
    })().catch((reason) => setError(String(reason)));
  }, []);
  if (error) return h('p', { role: 'alert' }, error);
  return h(
    'main',
    null,
    h('h1', null, 'Users'),
    users &&
      h(
        'table',
        null,
        h('thead', null, h('tr', null, h('th', null, 'User'), h('th', null, 'Email'), h('th', null, 'Status'))),
        h(
          'tbody',
          null,
          users.map((user) =>
            h(
              'tr',
              { key: user.id },
              h('td', null, user.attributes.name),
              h('td', null, user.attributes.email),
              h('td', null, user.attributes.status),
            ),
          ),
        ),
      ),
  );
}

createRoot(document.getElementById('root')).render(h(Users));
