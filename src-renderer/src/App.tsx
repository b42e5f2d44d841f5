import { useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useAppState } from './app-state.js';
import { Layout } from './components/Layout.js';
import { RequireSession } from './components/RequireSession.js';
import { LoginPage } from './pages/LoginPage.js';
import { NotFoundPage } from './pages/NotFoundPage.js';
import { ServicesPage } from './pages/ServicesPage.js';

/** The route table of the UI. Only pages that exist are routed; everything else is "not found". */
export function App() {
  const { session } = useAppState();
  useEffect(() => {
    void session.getState().check();
  }, [session]);

  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route
        element={
          <RequireSession>
            <Layout />
          </RequireSession>
        }
      >
        <Route index element={<Navigate to="/services" replace />} />
        <Route path="services" element={<ServicesPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
