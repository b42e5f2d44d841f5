import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import type { BootwrightApi } from '../../src-preload/preload.cjs';
import { selectTransport } from './api/select-transport.js';
import { App } from './App.js';
import { createAppState } from './app-state.js';
import { AppProviders } from './components/AppProviders.js';
import './styles.css';

declare global {
  interface Window {
    /** Present only inside the desktop app (the preload's context bridge). */
    bootwright?: BootwrightApi;
  }
}

const state = createAppState(selectTransport(window));
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders state={state}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>,
);
