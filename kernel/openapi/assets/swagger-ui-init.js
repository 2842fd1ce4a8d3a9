// Patchbay's Swagger UI: this server's document. "Try it out" calls the API as the browser's session, or with the
// token typed in "Authorize" (sent as `Token <key>`, the prefix added when left out). A session's unsafe calls
// carry its CSRF token, as the API asks of them.
window.addEventListener('load', function () {
  function csrfToken() {
    var cookie = document.cookie.split('; ').find(function (c) { return c.indexOf('csrftoken=') === 0; });
    return cookie ? decodeURIComponent(cookie.slice('csrftoken='.length)) : '';
  }
  window.ui = SwaggerUIBundle({
    url: '/api/schema/?format=json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    // A thousand operations: a box to show only those of one app (tag).
    filter: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    requestInterceptor: function (request) {
      var token = request.headers.Authorization;
      if (token && !/^token\s/i.test(token.trim())) request.headers.Authorization = 'Token ' + token.trim();
      if (!token && ['GET', 'HEAD', 'OPTIONS'].indexOf(String(request.method).toUpperCase()) < 0 && csrfToken()) {
        request.headers['X-CSRFToken'] = csrfToken();
      }
      return request;
    },
  });
});
