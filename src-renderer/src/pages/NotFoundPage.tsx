import { Link, useLocation } from 'react-router';

/** Any UI path the app does not know (deep links included). */
export function NotFoundPage() {
  const location = useLocation();
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>
        There is no page at <code>{location.pathname}</code>.
      </p>
      <p>
        <Link to="/services">Go to Services</Link>
      </p>
    </section>
  );
}
