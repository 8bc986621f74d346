import { randomBytes } from 'crypto';

/** A multipart/form-data body ready to send: its bytes and its content type (with boundary). */
export interface MultipartBody {
	body: Buffer;
	contentType: string;
}

/** Quotes a value for a `Content-Disposition` parameter (escapes `"` and `\`, drops CR/LF). */
function quoted(value: string): string {
	return `"${value.replace(/[\r\n]/g, ' ').replace(/(["\\])/g, '\\$1')}"`;
}

/**
 * Encodes one file field (RFC 7578) without any dependency: `field` is the form field name,
 * `fileName` and `mimeType` describe the file, `data` are its bytes.
 */
export function multipartFile(field: string, fileName: string, mimeType: string, data: Buffer): MultipartBody {
	const boundary = `----taskspace${randomBytes(16).toString('hex')}`;
	const head = Buffer.from(
		`--${boundary}\r\n` +
			`Content-Disposition: form-data; name=${quoted(field)}; filename=${quoted(fileName)}\r\n` +
			`Content-Type: ${mimeType.replace(/[\r\n]/g, '')}\r\n\r\n`,
		'utf8',
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
	return { body: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
