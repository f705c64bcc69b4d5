// The API's docs page: each operation of the OpenAPI document, with its body and answers'
// schemas. Drawn with DOM calls (no inline script, no innerHTML of the document's text).
(function () {
  "use strict";
  const root = document.getElementById("api-operations");
  if (!root) return;

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function schemaBlock(title, schema) {
    const details = el("details");
    details.appendChild(el("summary", title));
    details.appendChild(el("pre", JSON.stringify(schema, null, 2), "view"));
    return details;
  }

  function draw(doc) {
    root.textContent = "";
    Object.entries(doc.paths).forEach(([path, methods]) => {
      Object.entries(methods).forEach(([method, op]) => {
        const card = el("section", undefined, "card");
        card.id = op.operationId;
        card.appendChild(el("h2", method.toUpperCase() + " " + doc.servers[0].url.replace(/^https?:\/\/[^/]+/, "") + path));
        card.appendChild(el("p", op.summary));
        if (op.description) card.appendChild(el("p", op.description));
        if (op.requestBody) {
          const media = Object.values(op.requestBody.content)[0];
          card.appendChild(schemaBlock("Body", media.schema));
        }
        const answers = el("ul");
        Object.entries(op.responses).forEach(([status, answer]) => {
          answers.appendChild(el("li", status + ": " + answer.description));
        });
        card.appendChild(answers);
        root.appendChild(card);
      });
    });
    root.appendChild(schemaBlock("Schemas", doc.components.schemas));
  }

  fetch(root.dataset.schemaUrl, { credentials: "same-origin" })
    .then((response) => response.json())
    .then(draw)
    .catch(() => { root.textContent = "The OpenAPI document could not be read."; });
})();
