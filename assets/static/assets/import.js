// The /import page: drag and drop, a preview of the first rows, the column mapping step for a bank's own
// CSV header (prefilled from the mapping remembered for that header), and an upload progress bar. The form
// still works without this file (a plain multipart post to /import).
(function () {
  "use strict";
  const form = document.getElementById("import-form");
  if (!form) return;
  const input = document.getElementById("import-file");
  const zone = document.getElementById("dropzone");
  const preview = document.getElementById("preview");
  const table = document.getElementById("preview-table");
  const mapping = document.getElementById("mapping");
  const progress = document.getElementById("import-progress");
  const status = document.getElementById("import-status");
  const result = document.getElementById("import-result");
  const zeusHeader = form.dataset.zeusHeader.split(",");
  const remembered = JSON.parse(document.getElementById("remembered-mappings").textContent || "{}");

  function fold(text) {
    return text.replace(/đ/g, "d").replace(/Đ/g, "d").normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().replace(/\s+/g, " ").trim();
  }

  // Enough CSV for a preview: quoted fields, doubled quotes, commas or semicolons.
  function parseCsv(text, limit) {
    const rows = [];
    let row = [], cell = "", quoted = false;
    const sep = (text.split("\n")[0].match(/;/g) || []).length > (text.split("\n")[0].match(/,/g) || []).length ? ";" : ",";
    for (let i = 0; i < text.length && rows.length < limit; i++) {
      const ch = text[i];
      if (quoted) {
        if (ch === '"' && text[i + 1] === '"') { cell += '"'; i++; }
        else if (ch === '"') quoted = false;
        else cell += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === sep) { row.push(cell); cell = ""; }
      else if (ch === "\n" || ch === "\r") {
        if (ch === "\r" && text[i + 1] === "\n") i++;
        row.push(cell); cell = "";
        if (row.some((c) => c.trim())) rows.push(row);
        row = [];
      } else cell += ch;
    }
    if ((cell || row.length) && rows.length < limit) { row.push(cell); rows.push(row); }
    return rows;
  }

  function kindOf(head) {
    const text = head.replace(/^\ufeff/, "").trimStart();
    if (text.startsWith("PK")) return "xlsx";
    if (/^[\^\s]*!(Type|Account|Option)/i.test(text)) return "qif";
    if (/OFXHEADER\s*[:=]|<OFX[\s>]/i.test(text)) return "ofx";
    if (text.startsWith("<")) return "xml";
    if (/^\{1:F\d\d|^:20:/m.test(text) && /^:(25|28C?|60[FM]|61):/m.test(text)) return "mt940";
    // UTF-16 and Windows encodings are not what the preview reads: the server maps those files.
    if (text.includes("\u0000") || text.includes("\ufffd")) return "csv file";
    return "csv";
  }

  function showPreview(rows) {
    table.replaceChildren();
    rows.forEach((cells, index) => {
      const tr = document.createElement("tr");
      cells.forEach((value) => {
        const cell = document.createElement(index === 0 ? "th" : "td");
        cell.textContent = value;
        tr.appendChild(cell);
      });
      table.appendChild(tr);
    });
    preview.hidden = rows.length === 0;
  }

  function showMapping(header) {
    const isZeus = header.length === zeusHeader.length && header.every((h, i) => h.trim().toLowerCase() === zeusHeader[i]);
    mapping.hidden = isZeus;
    if (isZeus) return;
    const saved = remembered[header.map(fold).join("|")] || {};
    mapping.querySelectorAll("select[data-map]").forEach((select) => {
      select.replaceChildren(new Option("—", ""));
      header.forEach((column) => select.appendChild(new Option(column, column)));
      const key = select.dataset.map;
      const guess = saved[key] || "";
      select.value = header.includes(guess) ? guess : "";
    });
    const format = mapping.querySelector("input[data-map=date_format]");
    format.value = saved.date_format || format.value;
  }

  function inspect(file) {
    result.hidden = true;
    status.textContent = "";
    const reader = new FileReader();
    reader.onload = () => {
      const head = String(reader.result);
      if (kindOf(head) !== "csv") {
        preview.hidden = true;
        mapping.hidden = true;
        status.textContent = file.name + ": " + kindOf(head).toUpperCase();
        return;
      }
      const rows = parseCsv(head, 6);
      showPreview(rows);
      if (rows.length) showMapping(rows[0]);
    };
    reader.readAsText(file.slice(0, 65536));
  }

  input.addEventListener("change", () => { if (input.files[0]) inspect(input.files[0]); });
  ["dragenter", "dragover"].forEach((name) => zone.addEventListener(name, (event) => {
    event.preventDefault();
    zone.classList.add("over");
  }));
  ["dragleave", "drop"].forEach((name) => zone.addEventListener(name, () => zone.classList.remove("over")));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    if (event.dataTransfer.files.length) {
      input.files = event.dataTransfer.files;
      inspect(input.files[0]);
    }
  });

  function mappingJson() {
    if (mapping.hidden) return null;
    const values = {};
    mapping.querySelectorAll("[data-map]").forEach((field) => { if (field.value.trim()) values[field.dataset.map] = field.value.trim(); });
    return Object.keys(values).length ? JSON.stringify(values) : null;
  }

  // The importer's own words (in the reader's language), then what to do next: the page's table by code
  // (assets/pages.py import_next_steps), the same the page says without JavaScript.
  const nextSteps = JSON.parse(document.getElementById("import-next-steps").textContent);
  // A bad row's key and fields as the page names them (assets/pages.py import_row_words); the API keeps codes.
  const rowWords = JSON.parse(document.getElementById("import-row-words").textContent);
  function rowName(key) {
    const [kind, n] = key.split(" ", 2);
    return (kind === "transaction" || kind === "entry") && n ? interpolate(rowWords[kind], { n: key.slice(kind.length + 1) }, true) : key;
  }
  function refusal(error) {
    if (!error || !error.message) return gettext("The import failed.");
    let key = error.code || "";
    if (key.startsWith("INVALID_")) key = error.fields && error.fields.rows ? "INVALID_ROWS" : "INVALID";
    return nextSteps[key] ? error.message + " " + nextSteps[key] : error.message;
  }

  function showResult(ok, body) {
    result.replaceChildren();
    const line = document.createElement("p");
    const strong = document.createElement("strong");
    line.className = ok ? "good" : "bad";
    // Django's JavaScript catalog (zeus/js_catalog.html): the reader's language.
    if (ok) strong.textContent = interpolate(gettext("Imported %(n)s, skipped %(s)s already known."), { n: body.imported, s: body.skipped }, true);
    else strong.textContent = refusal(body.error);
    line.appendChild(strong);
    result.appendChild(line);
    const rows = ok ? null : body.error && body.error.fields && body.error.fields.rows;
    if (rows) {
      const errors = document.createElement("table");
      errors.className = "row-errors";
      Object.entries(rows).forEach(([key, problems]) => {
        const tr = document.createElement("tr");
        const where = document.createElement("td");
        const what = document.createElement("td");
        where.textContent = rowName(key);
        what.textContent = Object.entries(problems).map(([field, texts]) => (rowWords.fields[field] || field) + ": " + texts.join(" ")).join("; ");
        tr.append(where, what);
        errors.appendChild(tr);
      });
      result.appendChild(errors);
    }
    if (!ok && body.error && body.error.code === "CSV_BAD_HEADER") mapping.hidden = false;
    result.hidden = false;
  }

  form.addEventListener("submit", (event) => {
    if (!input.files[0]) return;
    event.preventDefault();
    const data = new FormData();
    data.append("file", input.files[0]);
    const asset = form.querySelector("[name=asset]").value;
    if (asset) data.append("asset", asset);
    const map = mappingJson();
    if (map) data.append("mapping", map);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.dataset.api);
    xhr.setRequestHeader("X-CSRFToken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    xhr.setRequestHeader("Accept", "application/json");
    progress.hidden = false;
    progress.value = 0;
    status.textContent = gettext("Uploading…");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress.value = Math.round((100 * e.loaded) / e.total);
    };
    xhr.upload.onload = () => { progress.value = 100; status.textContent = gettext("Importing… (large files take a few seconds)"); };
    xhr.onload = () => {
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch (err) { body = {}; }
      status.textContent = "";
      progress.hidden = true;
      showResult(xhr.status === 200, body);
    };
    xhr.onerror = () => { status.textContent = gettext("The upload failed; check your connection and try again."); progress.hidden = true; };
    xhr.send(data);
  });
})();
