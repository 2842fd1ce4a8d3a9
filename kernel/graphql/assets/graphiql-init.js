// Patchbay's GraphiQL: queries go to this server's /graphql/ as the browser's session (its cookie).
window.addEventListener('load', function () {
  var fetcher = GraphiQL.createFetcher({ url: '/graphql/' });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, { fetcher: fetcher, defaultEditorToolsVisibility: true, isHeadersEditorEnabled: true }));
});
