// REST calls with the session cookie and the CSRF token. Errors become ApiError with the contract's
// {"error": {"code", "message", "fields"}} when the server sent one.

import { gettext } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, fields) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields || {};
  }
}

let csrfToken = "";
export function setCsrfToken(token) {
  csrfToken = token;
}

export async function api(method, url, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken;
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "NETWORK", gettext("The server could not be reached."));
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error || {};
    throw new ApiError(response.status, error.code || `HTTP_${response.status}`, error.message || response.statusText, error.fields);
  }
  return data;
}
