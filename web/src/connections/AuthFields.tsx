import { useId } from 'react';
import type { PieceAuth } from './api';

/** The values a connection form holds: the custom or OAuth2 fields by name, or `secret_text`, `username`, `password`. */
export type AuthValues = Record<string, unknown>;

type Field = NonNullable<PieceAuth['props']>[string];

/** One field of a piece's connection form: a password box for secrets, a select for choices, a checkbox, a number or a text. */
function AuthField({ name, field, value, onChange }: { name: string; field: Field; value: unknown; onChange: (v: unknown) => void }) {
  const id = useId();
  const label = field.displayName || name;
  const first = field.description?.split('\n').find((l) => l.trim());
  const help = first ? (
    <span id={`${id}-help`} className="help">
      {first}
    </span>
  ) : null;
  const describedBy = first ? `${id}-help` : undefined;
  if (field.type === 'CHECKBOX')
    return (
      <div className="auth-field">
        <label className="checkbox">
          <input type="checkbox" aria-describedby={describedBy} checked={value === true} onChange={(e) => onChange(e.target.checked)} />{' '}
          {label}
        </label>
        {help}
      </div>
    );
  const secret = field.type === 'SECRET_TEXT';
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      {field.type === 'STATIC_DROPDOWN' && field.options ? (
        <select
          id={id}
          required={field.required}
          aria-describedby={describedBy}
          value={JSON.stringify(value ?? null)}
          onChange={(e) => onChange(JSON.parse(e.target.value))}
        >
          <option value="null">Choose…</option>
          {field.options.map((o) => (
            <option key={JSON.stringify(o.value)} value={JSON.stringify(o.value)}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={secret ? 'password' : field.type === 'NUMBER' ? 'number' : 'text'}
          autoComplete="off"
          required={field.required}
          aria-describedby={describedBy}
          value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
          onChange={(e) => onChange(field.type === 'NUMBER' && e.target.value !== '' ? Number(e.target.value) : e.target.value)}
        />
      )}
      {help}
    </div>
  );
}

/** The fields of one way to connect (`auth`): secret text, user and password, or the piece's own fields. */
export function AuthFields({ auth, values, onChange }: { auth: PieceAuth; values: AuthValues; onChange: (values: AuthValues) => void }) {
  const set = (name: string) => (v: unknown) => onChange({ ...values, [name]: v });
  if (auth.type === 'SECRET_TEXT')
    return (
      <AuthField
        name="secret_text"
        field={{
          type: 'SECRET_TEXT',
          displayName: auth.displayName,
          required: true,
          ...(auth.description ? { description: auth.description } : {}),
        }}
        value={values.secret_text}
        onChange={set('secret_text')}
      />
    );
  if (auth.type === 'BASIC_AUTH')
    return (
      <>
        <AuthField
          name="username"
          field={{ type: 'SHORT_TEXT', displayName: auth.username?.displayName ?? 'Username', required: true }}
          value={values.username}
          onChange={set('username')}
        />
        <AuthField
          name="password"
          field={{ type: 'SECRET_TEXT', displayName: auth.password?.displayName ?? 'Password', required: true }}
          value={values.password}
          onChange={set('password')}
        />
      </>
    );
  return (
    <>
      {Object.entries(auth.props ?? {}).map(([name, field]) => (
        <AuthField key={name} name={name} field={field} value={values[name]} onChange={set(name)} />
      ))}
    </>
  );
}

/** Default values of a way to connect's fields. */
export function authDefaults(auth: PieceAuth | undefined): AuthValues {
  const out: AuthValues = {};
  for (const [name, field] of Object.entries(auth?.props ?? {})) if (field.defaultValue !== undefined) out[name] = field.defaultValue;
  return out;
}

/** The `auth` body of `POST …/connections` for the form's values. */
export function authBody(auth: PieceAuth, values: AuthValues): Record<string, unknown> {
  if (auth.type === 'SECRET_TEXT') return { type: auth.type, secret_text: values.secret_text ?? '' };
  if (auth.type === 'BASIC_AUTH') return { type: auth.type, username: values.username ?? '', password: values.password ?? '' };
  return { type: auth.type, props: values };
}
