import { useState } from 'react';
import { useRefreshConnections } from '../../connections/api';
import { NewConnectionDialog } from '../../connections/NewConnectionDialog';
import { useBuilder } from './context';
import { PickerField, type SpecialProps } from './SpecialFields';

/**
 * A piece step's connection (`x-picker: connection`, docs/web-app.md "Connections"): the
 * workspace's connections of the step's piece, and "New connection", which opens the piece's
 * connection form in a dialog and picks the connection it makes.
 */
export function ConnectionField(props: SpecialProps) {
  const { workspaceId } = useBuilder();
  const refreshConnections = useRefreshConnections(workspaceId ?? '');
  const piece = props.schema['x-piece'];
  const [open, setOpen] = useState(false);
  return (
    <div className="connection-field">
      <PickerField {...props} />
      {workspaceId && piece && (
        <button type="button" className="secondary small" onClick={() => setOpen(true)}>
          New connection
        </button>
      )}
      {open && workspaceId && piece && (
        <NewConnectionDialog
          workspaceId={workspaceId}
          piece={piece}
          onClose={() => setOpen(false)}
          onCreated={async (connection) => {
            await refreshConnections();
            props.onChange(connection.id);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}
