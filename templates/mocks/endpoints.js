// Lists the endpoints from ../api/endpoints; relative URLs keep a proxy's path prefix.
const base = new URL('../', document.baseURI);
const table = document.getElementById('endpoints');
const status = document.getElementById('status');

for (const span of document.querySelectorAll('.base')) span.textContent = base.href;

function cell(row, content) {
  const td = row.insertCell();
  if (content instanceof Node) td.append(content);
  else td.textContent = String(content);
}

function link(href, text) {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

async function load() {
  status.textContent = 'Loading endpoints…';
  try {
    const response = await fetch(new URL('api/endpoints', base));
    const body = await response.json();
    if (!body.success) throw new Error(body.message);
    const rows = table.tBodies[0];
    rows.replaceChildren();
    for (const endpoint of body.endpoints) {
      const name = encodeURIComponent(endpoint.name);
      const row = rows.insertRow();
      cell(row, link(new URL(`endpoint/${name}`, base).href, endpoint.name));
      cell(row, endpoint.statusCode);
      cell(row, endpoint.delay);
      cell(row, endpoint.hits);
      cell(row, new Date(endpoint.updated).toLocaleString());
      cell(row, link(new URL(`api/endpoint/${name}/requests`, base).href, 'log'));
    }
    table.hidden = body.endpoints.length === 0;
    status.textContent = body.endpoints.length === 0 ? 'No endpoints yet.' : `${body.endpoints.length} endpoint(s)`;
  } catch (err) {
    status.textContent = `Could not load the endpoints: ${err.message}`;
  }
}

document.getElementById('refresh').addEventListener('click', load);
load();
