/**
 * What a browser that asks to be a screen shows until an admin approves it (issue 41): its code
 * in large type (two groups of three, no look-alikes), a QR code that opens the console's
 * approval page with the code filled in, this server's address, "Waiting for approval", and
 * when the code is replaced. It covers whatever the page would show: it counts as no screen.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { approvalPath, displayPairingCode } from '../../../../src/shared/pairing.ts';
import { store } from '../../../lib/store.ts';
import { pairingAtom } from '../enrolment.ts';
import './pairing.css';

/** The QR code as SVG markup (the library loads only on a screen that pairs). */
function useQrSvg(text: string | null): string | null {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    if (!text) return setSvg(null);
    let live = true;
    void import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0c1a12', light: '#ffffff' } }))
      .then((markup) => live && setSvg(markup))
      .catch(() => live && setSvg(null));
    return () => {
      live = false;
    };
  }, [text]);
  return svg;
}

function minutesLeft(expiresAt: string, now: number): string {
  const minutes = Math.max(0, Math.round((Date.parse(expiresAt) - now) / 60_000));
  return minutes <= 1 ? 'in a minute' : `in ${minutes} minutes`;
}

export function PairingScreen() {
  const pairing = useAtomValue(pairingAtom, { store });
  const [now, setNow] = useState(() => Date.now());
  const code = pairing?.state?.code ?? null;
  const approveUrl = code ? new URL(approvalPath(code), location.origin).href : null;
  const qr = useQrSvg(approveUrl);
  useEffect(() => {
    if (!pairing) return;
    const tick = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(tick);
  }, [pairing]);
  if (!pairing) return null;

  return (
    <div className="pairing" role="dialog" aria-modal="true" aria-labelledby="pairing-title" data-pairing-code={code ?? ''}>
      <title>Waiting for approval · Nature Wall</title>
      <div className="pairing__card">
        <p className="pairing__brand">Nature Wall</p>
        <h1 id="pairing-title" className="pairing__title">
          Waiting for approval
        </h1>
        {pairing.state ? (
          <>
            <p className="pairing__lead">An administrator approves this screen in the console under Screens, with this code:</p>
            <p className="pairing__code" aria-label={`Pairing code ${pairing.state.code.split('').join(' ')}`}>
              {displayPairingCode(pairing.state.code)}
            </p>
            <div className="pairing__how">
              <div className="pairing__qr" aria-hidden={qr ? undefined : true}>
                {qr ? <div role="img" aria-label="QR code: open the approval page with this code" dangerouslySetInnerHTML={{ __html: qr }} /> : <div className="pairing__qr-empty" />}
              </div>
              <dl className="pairing__facts">
                <dt>Server</dt>
                <dd>{location.host}</dd>
                <dt>Approval page</dt>
                <dd>{approveUrl ? new URL(approveUrl).pathname + new URL(approveUrl).search : ''}</dd>
                <dt>New code</dt>
                <dd>{minutesLeft(pairing.state.expires_at, now)}</dd>
              </dl>
            </div>
            <p className="pairing__status">
              <span className="pairing__pulse" aria-hidden="true" /> Waiting for approval — this screen shows its programme as soon as it is approved.
            </p>
          </>
        ) : (
          <p className="pairing__lead" role="status">
            {pairing.problem ?? 'Asking the server for a pairing code…'}
          </p>
        )}
      </div>
    </div>
  );
}
