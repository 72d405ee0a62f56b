import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router';
import { nonceCreatedStyles } from './shell/csp-nonce';
import { applyDocumentTitle } from './shell/session-storage';

nonceCreatedStyles();
applyDocumentTitle();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
