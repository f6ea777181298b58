// DKIM-signing a test reply as the sender's mail server would, with mailauth.
//
// Always with a fixed signing time. mailauth's dkimSign, given no `signTime`,
// reads the clock twice: once for the t= tag of the header it hashes and signs,
// and once more, after the RSA signature is made, for the t= tag of the header it
// writes (each Math.round(Date.now() / 1000)). When the two reads fall on either
// side of a half second the written t= is one more than the signed one, and every
// verifier reports "bad signature": about one reply in a few hundred, more on a
// busy machine where signing takes longer (test/mail/dkim.test.ts shows it).
import { dkimSign } from 'mailauth';

export interface DkimSigner {
  signingDomain: string;
  selector: string;
  /** PEM (PKCS#8) private key. */
  privateKey: string;
}

/** `raw` with a DKIM-Signature header of `signer` in front (relaxed/relaxed, rsa-sha256). */
export async function dkimSigned(raw: Buffer, signer: DkimSigner, at?: Date): Promise<Buffer> {
  const signed = await dkimSign(raw, {
    // One reading of the clock for both t= tags (see above).
    signTime: at ?? new Date(Date.now()),
    signatureData: [signer],
  } as unknown as Parameters<typeof dkimSign>[1]);
  const errors = (signed.errors ?? []) as unknown[];
  if (errors.length > 0) throw new Error(`DKIM signing failed: ${JSON.stringify(errors[0])}`);
  return Buffer.concat([Buffer.from(signed.signatures), raw]);
}
